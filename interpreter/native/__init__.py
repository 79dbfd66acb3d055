"""The native back-end: the typed model compiled to C (cgen and its modules), built with
the machine's C compiler and loaded with ctypes (build, library), a Game's protocol
routed through it (backend). docs/DESIGN.md, "The native back-end", describes the ABI.
"""
