"""JSON-RPC as the server reads it: every body the framing gives (framing.py) is checked
before pygls sees it, and whatever is wrong is answered by a JSON-RPC error, never by a
traceback:

| code   | when |
| ------ | ---- |
| -32700 | Parse error: damaged framing, a body that is not UTF-8 or not JSON, JSON nested deeper than MAX_JSON_DEPTH (id null) |
| -32600 | Invalid Request: a message over the size limit, not a JSON object, a bad `jsonrpc`, `id` or `method`; a request after `shutdown`, a second `initialize` |
| -32601 | Method not found: a request no feature answers |
| -32602 | Invalid params: params that are not what the method takes (positions out of the protocol's range included), a document that is not open |
| -32002 | Server not initialized: a request before `initialize` |

Notifications get no answer (JSON-RPC forbids it): one that cannot be handled is dropped
with a one-line log. The log never holds a traceback (OneLineFormatter).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any
from urllib.parse import unquote

import attrs
import cattrs
from cattrs.v import format_exception
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage

from interpreter.apps.lsp.framing import INVALID_REQUEST, PARSE_ERROR, Damaged

log = logging.getLogger("rulecraft.lsp")

MAX_JSON_DEPTH = 64  # nesting of a message (LSP's own messages need a dozen levels)
MAX_ERROR_MESSAGE = 1000  # characters of an error's message (it may quote the input)
MAX_LOG_LINE = 500  # characters of a line of the log

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
SERVER_NOT_INITIALIZED = -32002

TOO_DEEP = f"Parse error: JSON nested deeper than {MAX_JSON_DEPTH} levels"
# Documents the client reports on (a change to, or a close of, one that is not open is dropped).
DOCUMENT_NOTIFICATIONS = (types.TEXT_DOCUMENT_DID_CHANGE, types.TEXT_DOCUMENT_DID_CLOSE,
                          types.TEXT_DOCUMENT_DID_SAVE, types.TEXT_DOCUMENT_WILL_SAVE)


class Refused(Exception):
    """A message answered by an error instead of being handled."""

    def __init__(self, code: int, message: str, msg_id: int | str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.msg_id = code, message, msg_id


class NotOpen(JsonRpcInvalidParams):
    """A request about a document the client has not opened (the disk is never read for it)."""

    def __init__(self, uri: str) -> None:
        super().__init__(f"Invalid params: the document {uri[:200]} is not open")


class GameProtocol(LanguageServerProtocol):
    """pygls' protocol, fed checked messages (`receive`) instead of what json.loads makes."""

    def receive(self, frame: bytes | Damaged) -> None:
        """Handle one frame of the stream: answer an error for anything but a valid message."""
        try:
            if isinstance(frame, Damaged):
                raise Refused(frame.code, frame.message)
            self._dispatch(parse(frame))
        except Refused as r:
            log.warning("rulecraft lsp: %s", r.message)
            self.send_error(r.msg_id, r.code, r.message)

    def send_error(self, msg_id: int | str | None, code: int, message: str) -> None:
        # Written out: pygls' ResponseErrorMessage leaves out an id that is null.
        self._send_data({"jsonrpc": "2.0", "id": msg_id,
                         "error": {"code": code, "message": message[:MAX_ERROR_MESSAGE]}})

    def _dispatch(self, data: dict[str, Any]) -> None:
        msg_id = data.get("id")
        if "id" in data and (type(msg_id) not in (int, str)):
            raise Refused(INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
        if data.get("jsonrpc") != "2.0":
            raise Refused(INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"', msg_id)
        if "method" not in data:
            if "id" in data and ("result" in data or "error" in data):
                self._handle(data, self._response_type(data))
                return
            raise Refused(INVALID_REQUEST, "Invalid Request: neither a request, a notification nor a response",
                          msg_id)
        method = data["method"]
        if not isinstance(method, str):
            raise Refused(INVALID_REQUEST, "Invalid Request: method must be a string", msg_id)
        if "params" in data and not isinstance(data["params"], (dict, list, type(None))):
            raise Refused(INVALID_PARAMS, "Invalid params: params must be an object or an array", msg_id)
        if "id" in data:
            self._request(data, msg_id, method)
        else:
            self._notification(data, method)

    def _request(self, data: dict[str, Any], msg_id: int | str, method: str) -> None:
        if self._shutdown:
            raise Refused(INVALID_REQUEST, "Invalid Request: the server is shutting down", msg_id)
        initialized = self._workspace is not None
        if method == types.INITIALIZE and initialized:
            raise Refused(INVALID_REQUEST, "Invalid Request: the server is already initialized", msg_id)
        if method != types.INITIALIZE and not initialized:
            raise Refused(SERVER_NOT_INITIALIZED, "Server not initialized", msg_id)
        if not self._known(method):
            raise Refused(METHOD_NOT_FOUND, f"Method not found: {method}", msg_id)
        kind = self.get_message_type(method) or JsonRPCRequestMessage
        if attrs.has(kind) and "id" not in attrs.fields_dict(kind):
            raise Refused(INVALID_REQUEST, f"Invalid Request: {method} is a notification", msg_id)
        try:
            message = self._converter.structure(data, kind)
        except Exception as e:  # noqa: BLE001 - whatever structuring makes of the params
            raise Refused(INVALID_PARAMS, f"Invalid params: {describe(e)}", msg_id) from None
        self.handle_message(message)

    def _notification(self, data: dict[str, Any], method: str) -> None:
        if method != types.EXIT:
            why = ("the server is shutting down" if self._shutdown
                   else "the server is not initialized" if self._workspace is None and method != types.INITIALIZED
                   else None if self._known(method) or method == types.CANCEL_REQUEST
                   else "no such method")
            if why is not None:
                log.info("rulecraft lsp: %s ignored: %s", method[:100], why)
                return
        try:
            message = self._converter.structure(data, self.get_message_type(method) or JsonRPCNotification)
        except Exception as e:  # noqa: BLE001 - a notification gets no answer: a line of log
            log.warning("rulecraft lsp: %s ignored: invalid params: %s", method, describe(e))
            return
        if method in DOCUMENT_NOTIFICATIONS and not self._is_open(message.params.text_document.uri):
            log.warning("rulecraft lsp: %s ignored: the document %s is not open", method,
                        message.params.text_document.uri[:200])
            return
        self.handle_message(message)

    def _handle(self, data: dict[str, Any], kind: type) -> None:
        """A response to one of the server's requests: a malformed one is only logged."""
        try:
            message = self._converter.structure(data, kind)
        except Exception as e:  # noqa: BLE001
            log.warning("rulecraft lsp: a response ignored: %s", describe(e))
            return
        self.handle_message(message)

    def _response_type(self, data: dict[str, Any]) -> type:
        if "error" in data:
            return types.ResponseErrorMessage
        return self._result_types.pop(data["id"], None) or JsonRPCResponseMessage

    def _known(self, method: str) -> bool:
        return method in self.fm.builtin_features or method in self.fm.features

    def _is_open(self, uri: str) -> bool:
        return unquote(uri) in self.workspace.text_documents

    def _send_handler_result(self, future: Any, *, msg_id: Any) -> None:
        # A refusal of a handler (NotOpen) is an answer, not a failure to log.
        if not future.cancelled() and isinstance(future.exception(), JsonRpcException):
            self._request_futures.pop(msg_id, None)
            error = future.exception()
            self.send_error(msg_id, error.code, error.message)
            return
        super()._send_handler_result(future, msg_id=msg_id)

    def _send_response(self, msg_id: Any, result: Any | None = None,
                       error: types.ResponseError | None = None) -> None:
        if error is not None:  # pygls puts the traceback of an internal error in `data`
            self.send_error(msg_id, error.code, error.message)
            return
        super()._send_response(msg_id, result, error)


def parse(body: bytes) -> dict[str, Any]:
    """The JSON object of a body (raises Refused: -32700, or -32600 for another value)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Refused(PARSE_ERROR, f"Parse error: invalid UTF-8 at byte {e.start}") from None
    try:
        data = json.loads(text, parse_constant=_not_json)
    except RecursionError:  # json's own guard, far below the stack's end
        raise Refused(PARSE_ERROR, TOO_DEEP) from None
    except ValueError as e:
        raise Refused(PARSE_ERROR, f"Parse error: {e}") from None
    if deeper_than(data, MAX_JSON_DEPTH):
        raise Refused(PARSE_ERROR, TOO_DEEP)
    if not isinstance(data, dict):
        raise Refused(INVALID_REQUEST, "Invalid Request: a message is a JSON object")
    return data


def _not_json(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest deeper than `limit` levels (without recursion)."""
    stack = [(value, 1)] if isinstance(value, (dict, list)) else []
    while stack:
        v, depth = stack.pop()
        if depth > limit:
            return True
        items = v.values() if isinstance(v, dict) else v
        stack.extend((c, depth + 1) for c in items if isinstance(c, (dict, list)))
    return False


def describe(exc: Exception) -> str:
    """What is wrong with a message cattrs could not structure, in the protocol's names:
    `required field missing @ $.params.textDocument.uri`."""
    if not isinstance(exc, cattrs.BaseValidationError):
        return f"{type(exc).__name__}: {exc}"[:MAX_ERROR_MESSAGE]
    found = cattrs.transform_error(exc, format_exception=_format)
    return "; ".join(re.sub(r"(?<=[a-z])_([a-z])", lambda m: m.group(1).upper(), f) for f in found)


def _format(exc: BaseException, kind: Any) -> str:
    if type(exc) is ValueError and " should be " in str(exc):  # lsprotocol's validators: the range
        return str(exc).rstrip(".")
    return format_exception(exc, kind)


class OneLineFormatter(logging.Formatter):
    """A log record on one bounded line: an exception as its type and message, no traceback."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            e = record.exc_info[1]
            where = e.__traceback__
            while where is not None and where.tb_next is not None:
                where = where.tb_next
            at = f" at {where.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:{where.tb_lineno}" if where else ""
            text += f" ({type(e).__name__}: {e}{at})"
        line = f"{record.name}: " + " ".join(text.split())
        return line if len(line) <= MAX_LOG_LINE else line[:MAX_LOG_LINE] + "…"
