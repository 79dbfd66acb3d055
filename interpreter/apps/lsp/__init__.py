"""`rulecraft lsp`: a language server for `.game` files (LSP over stdio, with pygls).

documents.py loads and checks a document with the project's loader and checker (and
its bases, for a variant), words.py reads its words with the project's parser; the
features (diagnostics.py, hover.py with reference.py, completion.py, navigation.py,
symbols.py) answer from those, and server.py wires them to pygls. Only server.py and
the features import pygls' protocol types; the command (interpreter/apps/lsp_cli.py) imports
the server when it runs, so the rest of rulecraft never needs pygls.
"""
