#!/usr/bin/env python3
"""An SBP v1 (`sideband/1`) codec and a bqsuite adapter for it, in one file.

Run it under bqsuite (`run` is new after bqsuite 1.8.0):

    bqsuite run sbp-suite -- python3 examples/adapters/sbp_adapter.py

It speaks bqsuite's adapter protocol 1 (docs/reference/adapter-protocol.md): one JSON request
per line on stdin, one JSON reply per line on stdout, logs on stderr. It needs Python 3.8 or
later and nothing outside the standard library.

The file has two parts:

* the codec (`decode_frame`, `encode_frame`, `decode_handshake`): the wire rules of SBP v1 as
  the suite's model decides them (crates/sbp/DECISIONS.md), working on bytes and the suite's
  JSON vocabulary (docs/suites/sbp.md, "FRAME");
* the adapter (`main` and the few functions above it): reads requests, calls the codec, writes
  replies.

The protocol facts the codec follows come from Sideband's specifications (CC-BY-4.0,
(c) Sideband, https://sideband.tech), restated here in the project's own words.
"""

import json
import math
import re
import sys

# ---------------------------------------------------------------------------------------------
# The codec
# ---------------------------------------------------------------------------------------------

PROTOCOL_VIOLATION = 1000  # a frame over the configured cap
UNSUPPORTED_VERSION = 1001  # a handshake naming another protocol or version
INVALID_FRAME = 1002  # malformed or refused input
UNSUPPORTED_FEATURE = 1003  # the reserved `stream` subject

KINDS = ("control", "message", "ack", "error")  # indexed by the kind byte
OPS = ("handshake", "ping", "pong", "close")  # Control ops, indexed by the op byte

HEADER = 18  # kind, flags and the 16-byte frameId
STAMPED_HEADER = 26  # the same, plus the 8-byte timestamp
FLAG_TIMESTAMP = 0x01
RESERVED_FLAGS = 0xFE
MAX_SUBJECT = 256  # bytes of UTF-8
MAX_JSON_DEPTH = 127  # the deepest nesting the model's JSON reader takes


class Refused(Exception):
    """The codec refuses its input with an SBP error code (`why` is for people only)."""

    def __init__(self, code, why):
        super().__init__(why)
        self.code = code


class BadInput(Exception):
    """A request the adapter cannot read: a disagreement with bqsuite, not an SBP refusal."""


def u32(data, at):
    return int.from_bytes(data[at : at + 4], "little")


def strict_utf8(data, what):
    """`data` as text, refusing anything that is not UTF-8 (overlong forms, encoded surrogates,
    cut sequences). A leading BOM is valid UTF-8: it stays, as U+FEFF."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(INVALID_FRAME, what + " is not UTF-8") from None


def check_subject(data):
    """The subject held in `data`: exactly `rpc`, exactly `event`, or `app/` and anything.
    Exactly `stream` is reserved (1003); every other refusal is 1002. Length is in bytes."""
    if len(data) > MAX_SUBJECT:
        raise Refused(INVALID_FRAME, "subject longer than 256 bytes")
    subject = strict_utf8(data, "the subject")
    if subject == "":
        raise Refused(INVALID_FRAME, "empty subject")
    if "\0" in subject:
        raise Refused(INVALID_FRAME, "U+0000 in the subject")
    if subject in ("rpc", "event") or subject.startswith("app/"):
        return subject
    if subject == "stream":
        raise Refused(UNSUPPORTED_FEATURE, "the stream channel is not part of v1")
    raise Refused(INVALID_FRAME, "unknown subject")


def decode_frame(buf, limits):
    """Decodes one frame (one transport message) into a FRAME, or raises Refused.
    The first failing check decides: the cap, then the header, then the kind's own checks."""
    if len(buf) > limits["max_frame"]:
        raise Refused(PROTOCOL_VIOLATION, "frame over the configured cap")
    if len(buf) < HEADER:
        raise Refused(INVALID_FRAME, "shorter than a frame header")
    if buf[1] & RESERVED_FLAGS:
        raise Refused(INVALID_FRAME, "reserved flag bit set")
    stamped = buf[1] & FLAG_TIMESTAMP
    start = STAMPED_HEADER if stamped else HEADER
    if len(buf) < start:
        raise Refused(INVALID_FRAME, "timestamp cut short")
    if buf[0] >= len(KINDS):
        raise Refused(INVALID_FRAME, "unknown kind")
    frame = {"kind": KINDS[buf[0]], "frameId": buf[2:HEADER].hex()}
    if stamped:
        frame["timestamp"] = str(int.from_bytes(buf[HEADER:start], "little", signed=True))
    payload = buf[start:]
    PAYLOAD_READERS[buf[0]](payload, limits, frame)
    return frame


def read_control(p, limits, frame):
    if not p:
        raise Refused(INVALID_FRAME, "Control frame without an op")
    if p[0] >= len(OPS):
        raise Refused(INVALID_FRAME, "unknown Control op")
    op, data = OPS[p[0]], p[1:]
    if op == "handshake" and not data:
        raise Refused(INVALID_FRAME, "Handshake without a payload")
    if op in ("ping", "pong") and data:
        raise Refused(INVALID_FRAME, "bytes after a Ping or Pong")
    frame.update(op=op, data=data.hex())  # a Close reason stays opaque bytes


def read_message(p, limits, frame):
    if len(p) < 4:
        raise Refused(INVALID_FRAME, "Message payload shorter than its subject length")
    n = u32(p, 0)
    if n > len(p) - 4:
        raise Refused(INVALID_FRAME, "subject runs past the frame")
    frame.update(subject=check_subject(p[4 : 4 + n]), body=p[4 + n :].hex())


def read_ack(p, limits, frame):
    if len(p) != 16:
        raise Refused(INVALID_FRAME, "Ack payload is not exactly 16 bytes")
    frame["ackId"] = p.hex()


def read_error(p, limits, frame):
    if len(p) < 6:
        raise Refused(INVALID_FRAME, "Error payload shorter than code and length")
    code, n = int.from_bytes(p[0:2], "little"), u32(p, 2)  # any uint16 code is accepted
    if n > len(p) - 6:
        raise Refused(INVALID_FRAME, "Error message runs past the frame")
    if n > limits["max_error_message"]:
        raise Refused(INVALID_FRAME, "Error message over its limit")
    message = strict_utf8(p[6 : 6 + n], "the Error message")
    details = p[6 + n :]
    if len(details) > limits["max_error_details"]:
        raise Refused(INVALID_FRAME, "Error details over their limit")
    frame.update(code=code, message=message, details=details.hex())


PAYLOAD_READERS = (read_control, read_message, read_ack, read_error)


def encode_frame(frame, limits):
    """The bytes of a FRAME. The codec refuses to write what it would refuse to read: it decodes
    its own output with the same limits and raises that refusal, if any."""
    kind = frame["kind"]
    stamp = frame.get("timestamp")
    out = bytearray([KINDS.index(kind), FLAG_TIMESTAMP if stamp is not None else 0])
    out += frame["frameId"]
    if stamp is not None:
        out += stamp.to_bytes(8, "little", signed=True)
    if kind == "control":
        out.append(OPS.index(frame["op"]))
        out += frame["data"]
    elif kind == "message":
        subject = frame["subject"].encode("utf-8")
        out += len(subject).to_bytes(4, "little") + subject + frame["body"]
    elif kind == "ack":
        out += frame["ackId"]
    else:
        message = frame["message"].encode("utf-8")
        out += frame["code"].to_bytes(2, "little") + len(message).to_bytes(4, "little")
        out += message + frame["details"]
    decode_frame(bytes(out), limits)
    return bytes(out)


def decode_handshake(data, limits):
    """Reads a handshake payload. Order: size, UTF-8, JSON, object, the types of `protocol`,
    `version`, `peerId` (1002), then `protocol` = "sideband" and `version` = "1" (1001)."""
    if len(data) > limits["max_handshake"]:
        raise Refused(INVALID_FRAME, "handshake payload over its limit")
    text = strict_utf8(data, "the handshake payload")
    obj = strict_json(text)
    if not isinstance(obj, dict):
        raise Refused(INVALID_FRAME, "the handshake is not a JSON object")
    for key in ("protocol", "version", "peerId"):
        if not isinstance(obj.get(key), str):
            raise Refused(INVALID_FRAME, "`%s` missing or not a string" % key)
    if obj["protocol"] != "sideband":
        raise Refused(UNSUPPORTED_VERSION, "another protocol")
    if obj["version"] != "1":
        raise Refused(UNSUPPORTED_VERSION, "another version")
    # Unknown keys are ignored; `caps` counts only as an array of strings, `metadata` only as an
    # object (anything else there is ignored as a whole).
    shown = {key: obj[key] for key in ("protocol", "version", "peerId")}
    caps = obj.get("caps")
    if isinstance(caps, list) and all(isinstance(c, str) for c in caps):
        shown["caps"] = caps
    if isinstance(obj.get("metadata"), dict):
        shown["metadata"] = obj["metadata"]
    return shown


def strict_json(text):
    """One JSON text, refusing what Python's reader takes but the JSON grammar (or the suite's
    model) does not: NaN and Infinity, numbers beyond the double range, escaped lone surrogates,
    nesting deeper than 127. A leading U+FEFF is not JSON either (Python refuses it too)."""

    def no_constant(name):
        raise ValueError(name)

    def finite(number, as_type):
        if math.isinf(float(number)):  # the model reads numbers as doubles when they are large
            raise ValueError("number out of range")
        return as_type(number)

    if json_depth(text) > MAX_JSON_DEPTH:
        raise Refused(INVALID_FRAME, "the handshake JSON is nested too deeply")
    try:
        value = json.loads(
            text,
            parse_constant=no_constant,
            parse_float=lambda n: finite(n, float),
            # `-0` is a double for the model's reader, not the integer 0: keep it one.
            parse_int=lambda n: -0.0 if n == "-0" else finite(n, int),
        )
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        raise Refused(INVALID_FRAME, "the handshake payload is not JSON") from None
    if has_lone_surrogate(value):
        raise Refused(INVALID_FRAME, "an escaped lone surrogate in the handshake JSON")
    return value


def json_depth(text):
    """The deepest nesting of arrays and objects in `text` (outside strings)."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth -= 1
    return deepest


def has_lone_surrogate(value):
    if isinstance(value, str):
        return any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, list):
        return any(has_lone_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(has_lone_surrogate(k) or has_lone_surrogate(v) for k, v in value.items())
    return False


# ---------------------------------------------------------------------------------------------
# Reading the suite's vocabulary (bytes as lowercase hex, FRAME objects, limits)
# ---------------------------------------------------------------------------------------------

HEX_DIGITS = frozenset("0123456789abcdef")
LIMIT_KEYS = ("max_frame", "max_handshake", "max_error_message", "max_error_details")
FRAME_MEMBERS = {
    "control": ("op", "data"),
    "message": ("subject", "body"),
    "ack": ("ackId",),
    "error": ("code", "message", "details"),
}


def hex_bytes(text, size=None):
    """Lowercase hex only (bytes.fromhex alone would also take uppercase and spaces)."""
    if not isinstance(text, str) or len(text) % 2 or not HEX_DIGITS.issuperset(text):
        raise BadInput("not lowercase hex: %.80r" % (text,))
    if size is not None and len(text) != 2 * size:
        raise BadInput("not %d bytes of hex: %.80r" % (size, text))
    return bytes.fromhex(text)


def read_limits(given):
    if not isinstance(given, dict) or set(given) != set(LIMIT_KEYS):
        raise BadInput("`limits` must hold exactly %s" % ", ".join(LIMIT_KEYS))
    for key in LIMIT_KEYS:
        if type(given[key]) is not int or given[key] < 0:
            raise BadInput("`limits.%s` must be a non-negative integer" % key)
    return given


def read_frame(value):
    """A FRAME as the codec's encoder takes it: bytes for the hex members, an int timestamp."""
    kind = value.get("kind") if isinstance(value, dict) else None
    if kind not in FRAME_MEMBERS:
        raise BadInput("not a FRAME (kind control, message, ack or error): %r" % (value,))
    allowed = {"kind", "frameId", "timestamp"} | set(FRAME_MEMBERS[kind])
    if not allowed.issuperset(value) or not set(FRAME_MEMBERS[kind]).issubset(value):
        raise BadInput("a %s FRAME holds %s" % (kind, ", ".join(sorted(allowed))))
    frame = {"kind": kind, "frameId": hex_bytes(value["frameId"], 16)}
    if "timestamp" in value:
        stamp = value["timestamp"]
        canonical = isinstance(stamp, str) and re.fullmatch(r"0|-?[1-9][0-9]*", stamp)
        number = int(stamp) if canonical else None
        if number is None or not -(2**63) <= number < 2**63:
            raise BadInput("`timestamp` is an int64 in decimal, in a string: %r" % (stamp,))
        frame["timestamp"] = number
    for key in ("data", "body", "details"):
        if key in value:
            frame[key] = hex_bytes(value[key])
    for key in ("subject", "message"):
        if key in value:
            if not isinstance(value[key], str) or has_lone_surrogate(value[key]):
                raise BadInput("`%s` must be text" % key)
            frame[key] = value[key]
    if "op" in value and value["op"] not in OPS:
        raise BadInput("unknown Control op %r" % (value["op"],))
    if "code" in value and (type(value["code"]) is not int or not 0 <= value["code"] <= 65535):
        raise BadInput("`code` must be an integer from 0 to 65535")
    frame.update({k: value[k] for k in ("op", "code") if k in value})
    if "ackId" in value:
        frame["ackId"] = hex_bytes(value["ackId"], 16)
    return frame


# ---------------------------------------------------------------------------------------------
# The adapter: protocol 1 over stdin and stdout
# ---------------------------------------------------------------------------------------------

IMPLEMENTATION = {"name": "sbp-example-python", "version": "0.1.0", "language": "python"}


def member(obj, key):
    if not isinstance(obj, dict) or key not in obj:
        raise BadInput("no member `%s` in %.200r" % (key, obj))
    return obj[key]


def limits_of(i):
    return read_limits(member(i, "limits"))


# Each operation of the suite: its input object -> the reply's value (or Refused, or BadInput).
OPERATIONS = {
    "decode": lambda i: decode_frame(hex_bytes(member(i, "hex")), limits_of(i)),
    "encode": lambda i: encode_frame(read_frame(member(i, "frame")), limits_of(i)).hex(),
    "handshake": lambda i: decode_handshake(hex_bytes(member(i, "hex")), limits_of(i)),
}


def parse(line):
    try:
        return json.loads(line)
    except ValueError as e:  # not UTF-8, or not JSON
        raise BadInput("not a JSON line: %s" % e) from None


def reply_to(request):
    """The reply to one request (None for `stop`)."""
    cmd = member(request, "cmd")
    if cmd == "start":
        return {"protocol": 1, "implementation": IMPLEMENTATION}
    if cmd != "op":
        raise BadInput("unknown cmd %r" % (cmd,))
    seq, op = member(request, "seq"), member(request, "op")
    if op not in OPERATIONS:
        return {"seq": seq, "skip": "this adapter does not do the operation %r" % (op,)}
    try:
        return {"seq": seq, "value": OPERATIONS[op](member(request, "input"))}
    except Refused as refusal:
        return {"seq": seq, "error": {"code": refusal.code}}


def main():
    replies = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must never reach the protocol's stream
    for number, line in enumerate(sys.stdin.buffer, start=1):
        try:
            request = parse(line)
            if member(request, "cmd") == "stop":
                return 0
            reply = reply_to(request)
        except BadInput as e:
            # Not a request of protocol 1 in the suite's vocabulary: bqsuite and this adapter
            # disagree, and no reply says so. Say why on stderr and stop: bqsuite errors the
            # case and shows the tail of this log. (A bug in the codec ends in a traceback.)
            print("sbp_adapter: cannot read request line %d: %s" % (number, e), file=sys.stderr)
            return 2
        text = json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
        replies.write(text.encode("utf-8") + b"\n")
        replies.flush()
    return 0  # stdin closed without a stop: bqsuite has gone


if __name__ == "__main__":
    sys.exit(main())
