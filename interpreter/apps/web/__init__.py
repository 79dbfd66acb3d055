"""The web page of `rulecraft serve`: api.py answers each request from what the request
holds (a ruleset's text and the plies made so far), worker.py runs that work in a
process it can stop after a time limit, and app.py serves it with Starlette. Only app.py
needs the optional `web` extra (starlette, uvicorn)."""
