"""The .case format of test/server/orm (see README.md there): statements as
a client sent them over the wire, each with PostgreSQL's answer.

    # comment lines (between records)
    # TODO-paceline: why                  a known Paceline gap, marked by one or both of
    skip                                  the record fails as replayed (psycopg's own
                                          transactions)
    skip-alone                            the record fails replayed alone (autocommit,
                                          on the stand-in schema and data)
    record 12 conn 1 extended rowsort     number, client connection, protocol
                                          (simple | extended), compare mode
                                          (ordered | rowsort | anyvalue)
    types ["varchar", "int4", "-"]        extended only: the Parse's parameter types
                                          ("-" = unspecified, OID 0)
    params ["alice@example.com", "2", null]   the Bind's values as text (JSON null = NULL)
    formats tbt                           optional: the Bind's parameter formats, when
                                          not all text: t text, b binary (the values
                                          above are shown as text all the same)
    results binary                        optional: the Bind asked for binary results
                                          (they are shown decoded to text below)
    SELECT users.id, users.name           the SQL text, up to the ---- line
    FROM users WHERE users.email = $1::VARCHAR
    ----
    columns ["id", "name"]                the row description, when there was one
    ["1", "alice"]                        one JSON list per row, values in text
    ["2", null]                           format, null for NULL
    tag SELECT 2                          the command tag(s), or instead of all of
    error 23505 duplicate key value ...   the above: the SQLSTATE and message

Compare modes: `ordered` compares rows in order, `rowsort` as a multiset (the
statement does not fix their order), `anyvalue` the number of rows and
columns only (an answer that describes the server, like version()). Error
messages are documentation: only the SQLSTATE is compared.

Records are separated by blank lines; the SQL must not contain a blank line
or a line `----` (leading and trailing white space of the SQL is dropped).
"""
import datetime
import json
import re
import struct


class Record:
    def __init__(self):
        self.number = 0
        self.conn = 1
        self.protocol = "extended"
        self.mode = "ordered"
        self.types = []          # type names; "-" for OID 0
        self.params = []         # str or None
        self.formats = ""        # "" (all text) or one of t/b per parameter
        self.sql = ""
        self.columns = None      # [str] or None
        self.rows = []           # [[str or None]]
        self.tags = []           # [str]
        self.error = None        # (sqlstate, message)
        self.binary_results = False
        self.skip = False        # fails as replayed
        self.skip_alone = False  # fails replayed alone
        self.todo = ""           # the TODO-paceline reason, when skipped
        self.comments = []       # other comment lines directly above the record
        self.line = 0


def _dump(value):
    return json.dumps(value, ensure_ascii=False)


def format_record(r):
    out = list(r.comments)
    if r.skip or r.skip_alone:
        out.append("# TODO-paceline: " + r.todo)
    if r.skip:
        out.append("skip")
    if r.skip_alone:
        out.append("skip-alone")
    out.append(f"record {r.number} conn {r.conn} {r.protocol} {r.mode}")
    if r.protocol == "extended" and (r.params or r.types):
        out.append("types " + _dump(r.types))
        out.append("params " + _dump(r.params))
    if "b" in r.formats:
        out.append("formats " + r.formats)
    if r.binary_results:
        out.append("results binary")
    sql = r.sql.strip()
    if re.search(r"\n\s*\n", sql) or re.search(r"^----$", sql, re.M):
        raise ValueError(f"record {r.number}: SQL with a blank line or ----: {sql!r}")
    out.append(sql)
    out.append("----")
    if r.error:
        out.append(f"error {r.error[0]} {r.error[1]}".rstrip())
    else:
        if r.columns is not None:
            out.append("columns " + _dump(r.columns))
        for row in r.rows:
            out.append(_dump(row))
        for tag in r.tags:
            out.append("tag " + tag)
    return "\n".join(out) + "\n"


def write(path, header_lines, records):
    with open(path, "w") as f:
        for line in header_lines:
            f.write(("# " + line).rstrip() + "\n")
        for r in records:
            f.write("\n" + format_record(r))


def parse(path):
    """Returns (header comment lines, [Record])."""
    with open(path) as f:
        lines = f.read().split("\n")
    header, records = [], []
    i, comments, todo, skip, skip_alone = 0, [], "", False, False
    seen_record = False
    while i < len(lines):
        text = lines[i].rstrip()
        if not text.strip():
            if not seen_record and comments:
                header += [c[2:] if c.startswith("# ") else c[1:] for c in comments]
                comments = []
            i += 1
            continue
        if text.startswith("#"):
            if text.startswith("# TODO-paceline:"):
                todo = text[len("# TODO-paceline:"):].strip()
            else:
                comments.append(text)
            i += 1
            continue
        if text in ("skip", "skip-alone"):
            if text == "skip":
                skip = True
            else:
                skip_alone = True
            i += 1
            continue
        words = text.split()
        if words[0] != "record" or len(words) != 6 or words[2] != "conn":
            raise ValueError(f"{path}:{i + 1}: expected a record header: {text}")
        seen_record = True
        r = Record()
        r.line = i + 1
        r.number, r.conn, r.protocol, r.mode = int(words[1]), int(words[3]), words[4], words[5]
        if r.protocol not in ("simple", "extended") or r.mode not in ("ordered", "rowsort", "anyvalue"):
            raise ValueError(f"{path}:{i + 1}: bad record header: {text}")
        if (skip or skip_alone) and not todo:
            raise ValueError(f"{path}:{i + 1}: skip without a '# TODO-paceline: why' line above it")
        r.skip, r.skip_alone, r.todo, r.comments = skip, skip_alone, todo if skip or skip_alone else "", comments
        skip, skip_alone, todo, comments = False, False, "", []
        i += 1
        if lines[i].startswith("types "):
            r.types = json.loads(lines[i][6:])
            i += 1
        if lines[i].startswith("params "):
            r.params = json.loads(lines[i][7:])
            i += 1
        if lines[i].startswith("formats "):
            r.formats = lines[i][8:].strip()
            i += 1
        if lines[i].rstrip() == "results binary":
            r.binary_results = True
            i += 1
        sql = []
        while i < len(lines) and lines[i].rstrip() != "----":
            if not lines[i].strip():
                raise ValueError(f"{path}:{r.line}: record without a ---- line")
            sql.append(lines[i])
            i += 1
        if i >= len(lines):
            raise ValueError(f"{path}:{r.line}: record without a ---- line")
        r.sql = "\n".join(sql).strip()
        i += 1
        while i < len(lines) and lines[i].strip():
            text = lines[i].rstrip("\r")
            if text.startswith("error "):
                state, _, message = text[6:].partition(" ")
                r.error = (state, message)
            elif text.startswith("columns "):
                r.columns = json.loads(text[8:])
            elif text.startswith("tag "):
                r.tags.append(text[4:])
            elif text.startswith("["):
                r.rows.append(json.loads(text))
            else:
                raise ValueError(f"{path}:{i + 1}: unexpected result line: {text}")
            i += 1
        records.append(r)
    return header, records


# Values sent or received in binary format, as text and back, for the
# types psycopg sends or asks for in binary. Text is PostgreSQL's text format.
_EPOCH = datetime.datetime(2000, 1, 1)


def _timestamp_text(b):
    t = _EPOCH + datetime.timedelta(microseconds=struct.unpack("!q", b)[0])
    return t.isoformat(" ", "microseconds" if t.microsecond else "seconds")


def _timestamp_binary(text):
    t = datetime.datetime.fromisoformat(text)
    delta = t - _EPOCH
    return struct.pack("!q", (delta.days * 86400 + delta.seconds) * 1000000 + delta.microseconds)


def _date_text(b):
    return (_EPOCH.date() + datetime.timedelta(days=struct.unpack("!i", b)[0])).isoformat()


def _date_binary(text):
    return struct.pack("!i", (datetime.date.fromisoformat(text) - _EPOCH.date()).days)


_CODECS = {  # type OID: (binary -> text, text -> binary)
    16: (lambda b: "t" if b == b"\x01" else "f", lambda t: b"\x01" if t == "t" else b"\x00"),          # bool
    17: (lambda b: "\\x" + b.hex(), lambda t: bytes.fromhex(t[2:])),                                 # bytea
    20: (lambda b: str(struct.unpack("!q", b)[0]), lambda t: struct.pack("!q", int(t))),             # int8
    21: (lambda b: str(struct.unpack("!h", b)[0]), lambda t: struct.pack("!h", int(t))),             # int2
    23: (lambda b: str(struct.unpack("!i", b)[0]), lambda t: struct.pack("!i", int(t))),             # int4
    26: (lambda b: str(struct.unpack("!I", b)[0]), lambda t: struct.pack("!I", int(t))),             # oid
    700: (lambda b: repr(struct.unpack("!f", b)[0]), lambda t: struct.pack("!f", float(t))),         # float4
    701: (lambda b: repr(struct.unpack("!d", b)[0]), lambda t: struct.pack("!d", float(t))),         # float8
    1082: (_date_text, _date_binary),                                                               # date
    1114: (_timestamp_text, _timestamp_binary),                                                     # timestamp
}
_TEXT_LIKE = {18, 19, 25, 1042, 1043, 2275}  # char, name, text, bpchar, varchar, cstring


def value_to_text(value, type_oid, binary):
    """A parameter or result value (bytes or None) as the case file shows it;
    ValueError when a binary value of this type cannot be shown as text."""
    if value is None:
        return None
    if not binary or type_oid in _TEXT_LIKE:
        return value.decode()
    if type_oid not in _CODECS:
        raise ValueError(f"no text form for binary values of type OID {type_oid}")
    text = _CODECS[type_oid][0](value)
    if _CODECS[type_oid][1](text) != value:
        raise ValueError(f"binary value {value!r} of type OID {type_oid} does not survive as text {text!r}")
    return text


def text_to_value(text, type_oid, binary):
    """The inverse of value_to_text."""
    if text is None:
        return None
    if not binary or type_oid in _TEXT_LIKE:
        return text.encode()
    return _CODECS[type_oid][1](text)


def type_oid(name):
    """A `types` entry's OID: "-" is 0, a number is itself, else psycopg's
    registry of built-in types."""
    if name == "-":
        return 0
    if name.isdigit():
        return int(name)
    import psycopg
    return psycopg.postgres.types[name].oid


def type_name(oid, names):
    """The `types` entry for an OID (names: OID -> typname from pg_type)."""
    if oid == 0:
        return "-"
    name = names.get(oid)
    try:
        return name if name and type_oid(name) == oid else str(oid)
    except KeyError:
        return str(oid)
