"""Redis refusing to write: ``MISCONF`` and ``OOM`` answers.

A Redis that cannot persist (a full disk, a folder it cannot write: a failed RDB
snapshot with ``stop-writes-on-bgsave-error yes``, or a failed append-only file
write) answers every write, and ``PING``, with ``MISCONF ...``; one whose memory
reached ``maxmemory`` under the ``noeviction`` policy answers the writes that
would take memory with ``OOM command not allowed ...``. Neither is an error of one
call: no write of the crawl can succeed until an operator acts, so the crawl stops
(:mod:`skeleton.store.outage`).

redis-py raises these answers as :class:`redis.ResponseError` (``OOM`` as its
subclass :class:`redis.exceptions.OutOfMemoryError`, with the ``OOM`` code taken
off the message), with the message of a pipeline's command prefixed by the
command, and with a Lua script's wrapped in ``Error running script ...: -OOM ...``
(Redis 6; Redis 7 keeps the code first). The clients of
:func:`skeleton.store.server.connect` read replies with :class:`Parser`, which
raises :class:`CannotWrite` for them instead, so that the components catching
:data:`skeleton.store.outage.REDIS_ERRORS` stop on them as on a lost connection;
:func:`refusal` recognises them from any client.
"""
from __future__ import annotations

import re

import redis
from redis.connection import DefaultParser
from redis.exceptions import OutOfMemoryError

__all__ = ["CODES", "CannotWrite", "Parser", "refusal", "reply_refusal"]

#: The refusals, each with what usually causes it.
CODES = {"MISCONF": "disk full?", "OOM": "out of memory: maxmemory reached?"}

_REPLY = re.compile(r"(?:MISCONF|OOM) ")
#: a Lua script's error around a refused call (Redis 6: ``ERR Error running script
#: (call to f_...): @user_script:12: @user_script: 12: -OOM command not allowed ...``)
_SCRIPT = re.compile(r"(?:ERR )?Error running script\b.*?: -(?=(?:MISCONF|OOM) )", re.S)
#: redis-py's note on the failed command of a pipeline (``Pipeline.annotate_exception``)
_PIPELINE = re.compile(r"Command # \d+ \(.*\) of pipeline caused error: ", re.S)


class CannotWrite(redis.ResponseError):
    """Redis refused a write: ``MISCONF`` or ``OOM``. ``reply`` is Redis' answer,
    from its code on (``"OOM command not allowed when used memory > 'maxmemory'."``)."""

    def __init__(self, reply: str) -> None:
        super().__init__(reply, status_code=reply.split(" ", 1)[0])
        self.reply = reply

    @property
    def code(self) -> str:
        return self.reply.split(" ", 1)[0]

    @property
    def hint(self) -> str:
        return CODES.get(self.code, "")


def reply_refusal(reply: str) -> str | None:
    """Redis' error answer ``reply`` from its code on if it refuses a write (also
    from within a script), else None."""
    if _REPLY.match(reply):
        return reply
    script = _SCRIPT.match(reply)
    return reply[script.end():] if script else None


def refusal(exc: BaseException) -> str | None:
    """The refusal (``MISCONF ...`` or ``OOM ...``) that ``exc`` reports, raised by
    any redis-py client (with or without :class:`Parser`, from a command, a script
    or a pipeline), else None."""
    if isinstance(exc, CannotWrite):
        return exc.reply
    if not isinstance(exc, redis.ResponseError) or not exc.args:
        return None
    message = str(exc.args[0])
    annotated = _PIPELINE.match(message)
    if annotated:
        message = message[annotated.end():]
    if isinstance(exc, OutOfMemoryError) and not message.startswith("OOM "):
        return f"OOM {message}"  # redis-py took the code off
    return reply_refusal(message)


class Parser(DefaultParser):  # type: ignore[misc,valid-type]
    """redis-py's reply parser (hiredis' when installed), raising :class:`CannotWrite`
    for a refusal to write: ``parser_class`` of :func:`skeleton.store.server.connect`'s
    clients."""

    @classmethod
    def parse_error(cls, response: str) -> Exception:
        reply = reply_refusal(response)
        if reply is not None:
            return CannotWrite(reply)
        return super().parse_error(response)
