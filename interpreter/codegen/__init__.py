"""What both back-ends generate, written once: a small statement language (stmt.py) and
the plans written in it (turns.py); each back-end prints a plan in its own language
(interpreter/python/printer.py, interpreter/native/printer.py)."""
