"""The runner -> host request, and the host's reply.

Request: `<length>\n` then NUL-separated fields: a kind, cwd, argc, argv..., env
`KEY=VALUE`... (none of them can hold a NUL). Kind `cfs1` is an object call (argv as
the runner got it, decided by the host); `cfd1` is a call the broker already decided
(argv[0] is its job, JSON: driver, where, args, schema). The caller's stdin travels alongside as
an SCM_RIGHTS descriptor. Reply: the object runner's JSONL events, byte for byte, then
`#exit <code>\n`. No `json` on the runner's side: it would import `re`."""

import os

MAGIC = b"cfs1"
MAGIC_JOB = b"cfd1"
KINDS = (MAGIC, MAGIC_JOB)
EXIT_PREFIX = b"#exit "
MAX_REQUEST = 4 << 20


def encode_request(cwd: str, argv: list[str], env: dict[str, str], kind: bytes = MAGIC) -> bytes:
    fields = [kind, os.fsencode(cwd), str(len(argv)).encode()]
    fields += [os.fsencode(a) for a in argv]
    fields += [os.fsencode(k) + b"=" + os.fsencode(v) for k, v in env.items()]
    payload = b"\0".join(fields)
    return str(len(payload)).encode() + b"\n" + payload


def decode_request(payload: bytes) -> tuple[bytes, str, list[str], dict[str, str]]:
    """(kind, cwd, argv, env); ValueError when it is not a request of this version."""
    fields = payload.split(b"\0")
    if len(fields) < 3 or fields[0] not in KINDS or not fields[2].isdigit():
        raise ValueError("not a cfs1/cfd1 request")
    argc = int(fields[2])
    if len(fields) < 3 + argc:
        raise ValueError("request argv is short")
    argv = [os.fsdecode(a) for a in fields[3 : 3 + argc]]
    env = {}
    for item in fields[3 + argc :]:
        key, sep, value = item.partition(b"=")
        if not sep:
            raise ValueError("request env item is not KEY=VALUE")
        env[os.fsdecode(key)] = os.fsdecode(value)
    return fields[0], os.fsdecode(fields[1]), argv, env
