"""A reliable FIFO request queue for workers sharing a crawl (``SCHEDULER_QUEUE_CLASS``).

scrapy-redis pops requests destructively: a worker killed with SIGKILL loses
the requests it held, while their fingerprints stay in the dupefilter. Here a
pop is a lease: one Lua script moves the entry from the pending list
(``:requests``, LPUSH/RPOP, so breadth-first order is kept) to ``:inflight``
(lease id -> entry) with a deadline in ``:leases`` (Redis server time, so
worker clocks do not matter). The lease id names the worker
(``host-pid-random:n``).

A lease ends in one of three ways, each one script:

- **ack**: the response was processed (:class:`skeleton.store.scheduler.Scheduler`
  acknowledges it once the page's item is stored; the spider yields the page's
  child requests before the item, so they are already queued);
- **continuation**: a request carrying the lease in ``meta`` (a redirect, a
  retry, a page put back over budget) is pushed and the lease acked at once
  (and the dupefilter checked in the same script);
- **requeue**: an expired lease (its worker died or hung) is moved back to the
  head of the pending list by any worker; a worker closing normally puts back
  the leases it still holds. Live workers renew their leases with each heartbeat.
  The leases of a worker that ran on the same host and whose process is gone
  (its pid is in its id) are requeued at once, when a worker joins and at each
  heartbeat, without waiting for them to expire.

Entries are JSON (:mod:`skeleton.store.serializer`), decoded without letting queue
data choose code: an entry must name one of :data:`REQUEST_CLASSES` (classes
imported here, never a module an entry names) and public methods of the spider
as its callback and errback. Any other entry (another ``_class``, an unknown
callback, bad JSON, wrong types) is a dead letter: one script moves it as it was
to ``:dead`` (the newest :data:`DEAD_LETTER_MAX` are kept, the ``:meta`` field
``dead_letters`` counts them all) and ends its lease; it is counted
(``skeleton/queue/dead_letter``) and logged in one line, and the worker goes on
with the next entry, so one bad entry never stops a crawl from finishing.
"""
from __future__ import annotations

import functools
import inspect
import itertools
import logging
import os
import secrets
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psutil
from scrapy import Request
from scrapy_redis.queue import Base

from skeleton.crawl_settings import crawl_settings
from skeleton.store.keys import META_DEAD_LETTERS, CrawlKeys
from skeleton.store.server import run_pipeline

if TYPE_CHECKING:
    import redis
    from scrapy import Spider

__all__ = ["LEASE_META", "DEAD_LETTER_MAX", "REQUEST_CLASSES", "Exchange", "LeasedFifoQueue",
           "decode_entry", "request_finished", "new_worker_id", "dead_local_worker", "workers_alive"]

logger = logging.getLogger(__name__)

#: Request meta key holding the lease id of a request popped from the queue.
LEASE_META = "skeleton_lease"
#: Signal (``request=``) a spider sends when a leased request is done without an
#: item, e.g. from an errback: the scheduler acknowledges its lease.
request_finished = object()

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
#: KEYS: pending, leases, inflight. ARGV: lease id, lease ms. Returns the entry.
POP = _NOW + """
local data = redis.call('RPOP', KEYS[1])
if not data then return false end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], data)
return data
"""
#: KEYS: pending, leases, inflight, dupefilter. ARGV: entry, lease id ('' for
#: none), dupefilter mode ('' none, 'set': SADD the member in ARGV[4], 'bits':
#: set the Bloom filter bits at the offsets ARGV[4..]), then its arguments. The
#: entry is pushed if the dupefilter had not seen it; the lease is acked either
#: way. Checking and pushing at once means no fingerprint is ever recorded for a
#: request that is not queued. Returns 1 if pushed.
PUSH = """
local new = true
if ARGV[3] == 'set' then
  new = redis.call('SADD', KEYS[4], ARGV[4]) == 1
elseif ARGV[3] == 'bits' then
  new = false
  for i = 4, #ARGV do
    if redis.call('SETBIT', KEYS[4], ARGV[i], 1) == 0 then new = true end
  end
end
if new then redis.call('LPUSH', KEYS[1], ARGV[1]) end
if ARGV[2] ~= '' then
  redis.call('ZREM', KEYS[2], ARGV[2])
  redis.call('HDEL', KEYS[3], ARGV[2])
end
if new then return 1 end
return 0
"""
#: KEYS: pending, leases, inflight. ARGV: lease ms, then lease ids. Leases one
#: entry per id (fewer when the queue runs out). Returns the entries, in order.
POP_MANY = _NOW + """
local out = {}
for i = 2, #ARGV do
  local data = redis.call('RPOP', KEYS[1])
  if not data then break end
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), ARGV[i])
  redis.call('HSET', KEYS[3], ARGV[i], data)
  out[#out + 1] = data
end
return out
"""
#: KEYS: pending, leases, inflight, dupefilter. ARGV: groups of (entry, lease id
#: or '', dupefilter mode, the number n of its arguments, its n arguments), each
#: one :data:`PUSH`. Returns 1 (pushed) or 0 per group.
PUSH_MANY = """
local out = {}
local i = 1
while i <= #ARGV do
  local data, lease, mode, n = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
  local new = true
  if mode == 'set' then
    new = redis.call('SADD', KEYS[4], ARGV[i + 4]) == 1
  elseif mode == 'bits' then
    new = false
    for j = i + 4, i + 3 + n do
      if redis.call('SETBIT', KEYS[4], ARGV[j], 1) == 0 then new = true end
    end
  end
  if new then redis.call('LPUSH', KEYS[1], data) end
  if lease ~= '' then
    redis.call('ZREM', KEYS[2], lease)
    redis.call('HDEL', KEYS[3], lease)
  end
  if new then out[#out + 1] = 1 else out[#out + 1] = 0 end
  i = i + 4 + n
end
return out
"""
#: KEYS: leases, inflight. ARGV: lease ids. Returns how many were still leased.
ACK = """
local n = 0
for i = 1, #ARGV do
  n = n + redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[2], ARGV[i])
end
return n
"""
_BACK = """
local n = 0
for i = #ids, 1, -1 do
  local data = redis.call('HGET', KEYS[3], ids[i])
  if data then
    redis.call('RPUSH', KEYS[1], data)
    n = n + 1
  end
  redis.call('HDEL', KEYS[3], ids[i])
  redis.call('ZREM', KEYS[2], ids[i])
end
return n
"""
#: KEYS: pending, leases, inflight. ARGV: at most this many. Oldest leases end
#: up at the head of the queue. Returns how many entries were requeued.
REQUEUE_EXPIRED = _NOW + """
local ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
""" + _BACK
#: KEYS: pending, leases, inflight. ARGV: lease ids (oldest first) to put back.
RELEASE = """
local ids = {}
for i = 1, #ARGV do
  if redis.call('ZSCORE', KEYS[2], ARGV[i]) then ids[#ids + 1] = ARGV[i] end
end
""" + _BACK
#: KEYS: pending, leases, inflight, workers. ARGV: the id of a worker known dead.
#: Its leases (ids ``worker:n``) go back to the queue at once and it leaves
#: ``:workers``. Returns how many entries were requeued.
REQUEUE_WORKER = """
local prefix = ARGV[1] .. ':'
local ids = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if string.sub(id, 1, #prefix) == prefix then ids[#ids + 1] = id end
end
redis.call('ZREM', KEYS[4], ARGV[1])
""" + _BACK
#: KEYS: workers, leases. ARGV: worker id, lease ms, held lease ids. Returns now.
HEARTBEAT = _NOW + """
redis.call('ZADD', KEYS[1], now, ARGV[1])
for i = 3, #ARGV do
  redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[2]), ARGV[i])
end
return now
"""
#: KEYS: dead, leases, inflight, meta. ARGV: lease id, bound, meta field. Moves
#: the leased entry to the head of the dead-letter list (kept to ``bound``
#: entries), counts it and ends the lease. Returns 1, or 0 if the lease had
#: ended (another worker requeued it and deals with the entry).
DEAD_LETTER = """
local data = redis.call('HGET', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
if not data then return 0 end
redis.call('LPUSH', KEYS[1], data)
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
redis.call('HINCRBY', KEYS[4], ARGV[3], 1)
return 1
"""
#: Dead letters kept in ``:dead`` (the newest).
DEAD_LETTER_MAX = 1000
#: The request classes a queue entry may name (its ``_class``, as
#: ``Request.to_dict()`` writes it; no ``_class`` is ``scrapy.Request``). The
#: spider and the project's middlewares queue plain ``scrapy.Request``s; a
#: project subclass would be added here, imported by this module.
REQUEST_CLASSES: dict[str | None, type[Request]] = {
    None: Request,
    f"{Request.__module__}.{Request.__name__}": Request,
    "scrapy.Request": Request,
}
_CLASSES = frozenset(REQUEST_CLASSES.values())


def _spider_method(spider: Any, name: Any) -> Any:
    """The spider's public method ``name``, or ``ValueError``."""
    method = getattr(spider, name, None) if isinstance(name, str) and not name.startswith("_") \
        else None
    if not inspect.ismethod(method) or method.__self__ is not spider:
        raise ValueError(f"the spider has no method {str(name)[:80]!r}")
    return method


def _method_name(spider: Any, func: Any) -> str | None:
    """The name of ``func`` when it is a public method of ``spider`` bound to it,
    else None (to be looked up the slow way)."""
    name = getattr(func, "__name__", None)
    if (isinstance(name, str) and not name.startswith("_") and getattr(func, "__self__", None) is spider
            and getattr(getattr(spider, name, None), "__func__", None) is getattr(func, "__func__", None)):
        return name
    return None


#: attributes a queue entry writes apart (or, for ``url``, always)
_NAMED = frozenset({"url", "callback", "errback", "headers"})


@functools.lru_cache(maxsize=None)
def _defaults(cls: type[Request]) -> dict[str, Any]:
    """The attributes of a request of ``cls`` made from a URL alone (what its
    constructor gives an attribute that is not passed)."""
    blank = cls("http://localhost/")
    return {attr: getattr(blank, attr) for attr in cls.attributes if attr not in _NAMED}


def _plain_headers(headers: Any) -> dict[Any, Any]:
    """Request headers as ``{str: [str]}`` when every name and value is ASCII (a
    request's constructor encodes them back to the same bytes), else as Scrapy
    holds them (bytes, which the serializer tags)."""
    try:
        return {key.decode("ascii"): [value.decode("ascii") for value in values]
                for key, values in headers.items()}
    except (UnicodeDecodeError, AttributeError):
        return dict(headers)


def decode_entry(data: bytes | str, spider: Any, serializer: Any) -> Request:
    """The request a queue entry holds, like ``scrapy.utils.request.request_from_dict``
    but importing nothing: its ``_class`` must be one of :data:`REQUEST_CLASSES`,
    its callback and errback public methods of ``spider``. Raises ``ValueError`` or
    ``TypeError`` (or whatever a bad entry makes the request class raise)."""
    obj = serializer.loads(data)
    if not isinstance(obj, dict):
        raise TypeError(f"a JSON {type(obj).__name__}, not an object")
    name = obj.get("_class")
    cls = REQUEST_CLASSES.get(name) if name is None or isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"request class {str(name)[:120]!r} is not allowed")
    kwargs = {key: value for key, value in obj.items() if key in cls.attributes}
    for key in ("callback", "errback"):
        if obj.get(key):
            kwargs[key] = _spider_method(spider, obj[key])
    return cls(**kwargs)


def dead_local_worker(worker: str) -> bool:
    """Is ``worker`` (an id of :func:`new_worker_id`, ``host-pid-random``) a worker
    of this host whose process no longer runs (or is a zombie)? A worker of another
    host, or one whose pid runs (possibly reused by another program), is not known
    dead: its leases expire as usual."""
    try:
        host, pid, _ = worker.rsplit("-", 2)
        number = int(pid)
    except ValueError:
        return False
    if host != socket.gethostname() or number <= 0 or number == os.getpid():
        return False
    try:
        return psutil.Process(number).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True
    except psutil.Error:
        return False


def new_worker_id() -> str:
    """``host-pid-random``: unique among workers, and tells where a worker runs."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


def workers_alive(server: redis.Redis, keys: CrawlKeys, lease_seconds: float) -> int:
    """Workers whose last heartbeat is younger than one lease time."""
    seconds, micros = server.time()
    now = seconds * 1000 + micros // 1000
    return int(server.zcount(keys.workers, now - int(lease_seconds * 1000), "+inf"))


@dataclass(frozen=True, slots=True)
class Exchange:
    """One round trip of :meth:`LeasedFifoQueue.exchange`: the ``pushes`` (entry,
    lease, dupefilter arguments), the leases ``acks`` acknowledged and the lease ids
    ``ids`` of the entries leased."""

    pushes: list[tuple[str, str, list[str | int]]]
    acks: list[str]
    ids: list[str]


class LeasedFifoQueue(Base):
    """FIFO queue with leases. Needs the skeleton spider's crawl id
    (:mod:`skeleton.crawl_settings`); settings:
    ``SKELETON_LEASE_TIMEOUT`` (seconds a lease lives without a heartbeat, 60)."""

    def __init__(self, server: redis.Redis, spider: Spider, key: str,
                 serializer: Any = None) -> None:
        super().__init__(server, spider, key, serializer)
        crawl = crawl_settings(spider.settings)
        if crawl is None:
            raise ValueError("LeasedFifoQueue works with the skeleton spider only")
        self.keys = CrawlKeys(crawl.crawl)
        self.stats = spider.crawler.stats
        self.lease_ms = int(spider.settings.getfloat("SKELETON_LEASE_TIMEOUT", 60.0) * 1000)
        self.worker = new_worker_id()
        self.held: dict[str, None] = {}  # lease ids held, oldest first
        self._serial = itertools.count(1)
        self._pop = server.register_script(POP)
        self._pop_many = server.register_script(POP_MANY)
        self._push_many = server.register_script(PUSH_MANY)
        self._push = server.register_script(PUSH)
        self._ack = server.register_script(ACK)
        self._requeue = server.register_script(REQUEUE_EXPIRED)
        self._release = server.register_script(RELEASE)
        self._beat = server.register_script(HEARTBEAT)
        self._requeue_worker = server.register_script(REQUEUE_WORKER)
        self._dead = server.register_script(DEAD_LETTER)
        for script in (self._push_many, self._ack, self._pop_many):
            server.script_load(script.script)  # a pipeline calls them by sha only

    @property
    def _lease_keys(self) -> list[str]:
        return [self.key, self.keys.leases, self.keys.inflight]

    def __len__(self) -> int:
        return int(self.server.llen(self.key))

    def in_flight(self) -> int:
        """Leases held by all workers of the crawl."""
        return int(self.server.zcard(self.keys.leases))

    def push(self, request: Request, dupe: list[str | int] | None = None) -> bool:
        """Push ``request`` unless the dupefilter (``dupe``: mode and arguments of
        :data:`PUSH`) has seen it, and end the lease it carries. True if pushed."""
        if type(request) not in _CLASSES:
            raise TypeError(f"cannot queue a {type(request).__name__}: add its class to "
                            "skeleton.store.queue.REQUEST_CLASSES")
        lease = request.meta.pop(LEASE_META, None) or ""
        data = self._encode_request(request)
        pushed = self._push(keys=[*self._lease_keys, self.keys.dupefilter],
                            args=[data, lease, *(dupe or [""])])
        self.held.pop(lease, None)
        return bool(pushed)

    def entry(self, request: Request) -> tuple[str, str]:
        """The queue entry of ``request`` and the lease it carries ('' for none,
        taken out of its meta): what :meth:`exchange` pushes."""
        if type(request) not in _CLASSES:
            raise TypeError(f"cannot queue a {type(request).__name__}: add its class to "
                            "skeleton.store.queue.REQUEST_CLASSES")
        lease = request.meta.pop(LEASE_META, None) or ""
        return self._encode_request(request), lease

    def exchange(self, pushes: list[tuple[str, str, list[str | int]]], acks: list[str],
                 pop: int) -> tuple[list[bool], list[Request]]:
        """One round trip (a pipeline): push ``pushes`` (entry, lease, dupefilter
        mode and arguments: :meth:`entry`, :data:`PUSH_MANY`), acknowledge the leases
        ``acks`` and lease up to ``pop`` entries. Returns whether each push was new
        and the leased requests (a bad entry goes to the dead letters).
        :meth:`prepare`, :meth:`send` and :meth:`receive` in a row."""
        plan = self.prepare(pushes, acks, pop)
        if plan is None:
            return [], []
        return self.receive(plan, self.send(plan))

    def prepare(self, pushes: list[tuple[str, str, list[str | int]]], acks: list[str],
                pop: int) -> Exchange | None:
        """The exchange of :meth:`exchange`, ready to :meth:`send` (None: nothing to
        send). Only the leases this worker holds are acknowledged."""
        acks = [lease for lease in acks if lease in self.held]
        ids = [f"{self.worker}:{next(self._serial)}" for _ in range(max(0, pop))]
        if not (pushes or acks or ids):
            return None
        return Exchange(list(pushes), acks, ids)

    def send(self, plan: Exchange) -> list[Any]:
        """Send ``plan`` in one pipeline; Redis' replies. A plan that pushes and
        acknowledges sends its pushes first, in a pipeline of their own, and the
        rest only once they are written: Redis runs every command of a pipeline
        whatever the others answer, and one that refuses the pushes (``OOM``, the
        dupefilter's write comes first) still runs the acknowledgements (they free
        memory), which would end the lease of a page whose child requests were not
        queued. Touches nothing but the Redis client (thread-safe): it may run on
        another thread than the queue's other methods. Raises Redis' errors."""
        pushes, acks, ids = plan.pushes, plan.acks, plan.ids
        scripts = [s.script for s in (self._push_many, self._ack, self._pop_many)]

        def fill_pushes(pipe: Any) -> None:
            if pushes:
                args: list[Any] = []
                for data, lease, dupe in pushes:
                    mode, *rest = dupe or [""]
                    args += [data, lease, mode, len(rest), *rest]
                pipe.evalsha(self._push_many.sha, 4, *self._lease_keys, self.keys.dupefilter, *args)

        def fill_rest(pipe: Any) -> None:
            if acks:
                pipe.evalsha(self._ack.sha, 2, self.keys.leases, self.keys.inflight, *acks)
            if ids:
                pipe.evalsha(self._pop_many.sha, 3, *self._lease_keys, self.lease_ms, *ids)

        if pushes and acks:
            pushed = run_pipeline(self.server, fill_pushes, scripts)
            return pushed + run_pipeline(self.server, fill_rest, scripts)

        def fill(pipe: Any) -> None:
            fill_pushes(pipe)
            fill_rest(pipe)

        return run_pipeline(self.server, fill, scripts)

    def forget(self, leases: list[str]) -> None:
        """Stop renewing ``leases`` (their pages were not written): they expire and
        their requests go back to the queue (:meth:`requeue_expired`)."""
        for lease in leases:
            self.held.pop(lease, None)

    def receive(self, plan: Exchange, results: list[Any]) -> tuple[list[bool], list[Request]]:
        """What :meth:`exchange` returns, from the ``results`` of :meth:`send`
        (on the queue's own thread: the leases held are updated)."""
        results = list(results)
        pushed = [bool(flag) for flag in results.pop(0)] if plan.pushes else []
        for _, lease, _ in plan.pushes:
            self.held.pop(lease, None)
        if plan.acks:
            done = int(results.pop(0))
            for lease in plan.acks:
                self.held.pop(lease, None)
            if done < len(plan.acks):
                self.stats.inc_value("skeleton/leases/lost", len(plan.acks) - done)
        leased = (self._leased(lease, data)
                  for lease, data in zip(plan.ids, results.pop(0) if plan.ids else []))
        return pushed, [request for request in leased if request is not None]

    def _leased(self, lease: str, data: bytes | str) -> Request | None:
        """The request of the entry ``data`` just leased as ``lease``, held; None for
        a bad entry, which goes to the dead letters."""
        try:
            request = self._decode_request(data)
        except Exception as exc:  # noqa: BLE001 - any bad entry, never Redis: popped above
            self.dead_letter(lease, data, exc)
            return None
        request.meta[LEASE_META] = lease
        self.held[lease] = None
        return request

    def pop(self, timeout: int = 0) -> Request | None:
        while True:
            lease = f"{self.worker}:{next(self._serial)}"
            data = self._pop(keys=self._lease_keys, args=[lease, self.lease_ms])
            if data is None:
                return None
            request = self._leased(lease, data)
            if request is not None:
                return request

    def _encode_request(self, request: Request) -> str:
        """The request as JSON, what ``Request.to_dict(spider=...)`` holds less the
        attributes left at the request class's defaults (:func:`decode_entry` builds
        the request with its constructor, which restores them), with ASCII headers
        as plain strings, and naming the callback and errback directly when they are
        the spider's own public methods (``to_dict`` looks them up among all the
        spider's members, for every request). A queued link is about 300 bytes."""
        names = [None if f is None else _method_name(self.spider, f)
                 for f in (request.callback, request.errback)]
        if any(n is None and f is not None for n, f in zip(names, (request.callback, request.errback))):
            return self.serializer.dumps(request.to_dict(spider=self.spider))
        obj: dict[str, Any] = {"url": request.url}
        for name, value in zip(("callback", "errback"), names):
            if value is not None:
                obj[name] = value
        if request.headers:
            obj["headers"] = _plain_headers(request.headers)
        defaults = _defaults(type(request))
        for attr in request.attributes:
            if attr not in obj and attr not in _NAMED:
                value = getattr(request, attr)
                if attr not in defaults or value != defaults[attr]:
                    obj[attr] = value
        if type(request) is not Request:
            obj["_class"] = f"{type(request).__module__}.{type(request).__name__}"
        return self.serializer.dumps(obj)

    def _decode_request(self, encoded_request: bytes | str) -> Request:
        return decode_entry(encoded_request, self.spider, self.serializer)

    def dead_letter(self, lease: str, data: bytes | str, exc: BaseException) -> None:
        """Move the leased entry ``data`` that could not be decoded to ``:dead``."""
        moved = self._dead(keys=[self.keys.dead, self.keys.leases, self.keys.inflight,
                                 self.keys.meta],
                           args=[lease, DEAD_LETTER_MAX, META_DEAD_LETTERS])
        if not moved:
            return
        self.stats.inc_value("skeleton/queue/dead_letter")
        logger.warning("moved a bad queue entry to %s (%s: %.200s): %.200r", self.keys.dead,
                       type(exc).__name__, exc, data)

    def ack(self, lease: str) -> bool:
        """End a lease this worker holds; False if it is not held (acked before)
        or had expired and been requeued meanwhile."""
        if lease not in self.held:
            return False
        del self.held[lease]
        done = self._ack(keys=[self.keys.leases, self.keys.inflight], args=[lease])
        if not done:
            self.stats.inc_value("skeleton/leases/lost")
        return bool(done)

    def requeue_expired(self, limit: int = 1000) -> int:
        count = int(self._requeue(keys=self._lease_keys, args=[limit]))
        if count:
            self.stats.inc_value("skeleton/leases/requeued", count)
            logger.info("requeued %d requests whose lease expired", count)
        return count

    def requeue_dead_workers(self) -> int:
        """Put back at once the leases of the crawl's workers that ran on this host
        and whose process is gone (:func:`dead_local_worker`), instead of waiting
        for their leases to expire. Returns how many entries were requeued."""
        workers = {w.decode() if isinstance(w, bytes) else w
                   for w in self.server.zrange(self.keys.workers, 0, -1)}
        workers.update((lease.decode() if isinstance(lease, bytes) else lease).rsplit(":", 1)[0]
                       for lease in self.server.zrange(self.keys.leases, 0, -1))
        count = 0
        for worker in sorted(workers):
            if worker != self.worker and dead_local_worker(worker):
                moved = int(self._requeue_worker(keys=[*self._lease_keys, self.keys.workers],
                                                 args=[worker]))
                if moved:
                    logger.info("requeued %d requests of worker %s (its process is gone)", moved, worker)
                count += moved
        if count:
            self.stats.inc_value("skeleton/leases/requeued_dead_worker", count)
        return count

    def release(self) -> int:
        """Put back the leases this worker still holds (at a normal close)."""
        held, self.held = list(self.held), {}
        if not held:
            return 0
        count = int(self._release(keys=self._lease_keys, args=held))
        self.stats.inc_value("skeleton/leases/released", count)
        return count

    def heartbeat(self) -> None:
        """Say this worker is alive and renew its leases."""
        self._beat(keys=[self.keys.workers, self.keys.leases],
                   args=[self.worker, self.lease_ms, *self.held])

    def retire(self) -> None:
        self.server.zrem(self.keys.workers, self.worker)

    def clear(self) -> None:
        self.server.delete(self.key, self.keys.leases, self.keys.inflight)
