"""The Lua scripts of the leased request queue (:mod:`skeleton.store.queue`) and of
worker liveness (:mod:`skeleton.store.liveness`): each one atomic step on the crawl's
``:requests`` (pending list, LPUSH/RPOP: breadth-first order), ``:leases`` (lease id ->
deadline, Redis server milliseconds, so worker clocks do not matter), ``:inflight``
(lease id -> entry), ``:workers`` (worker id -> last heartbeat), ``:dead`` and
``:meta`` (:mod:`skeleton.store.keys`). A lease id names its worker (``worker:n``).
Each constant documents its ``KEYS`` and ``ARGV``; nothing here talks to Redis.
"""
from __future__ import annotations

__all__ = ["PUSH_MANY", "POP_MANY", "ACK", "REQUEUE_EXPIRED", "RELEASE", "REQUEUE_WORKER", "HEARTBEAT",
           "DEAD_LETTER"]

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
#: KEYS: pending, leases, inflight, dupefilter. ARGV: groups of (entry, lease id
#: or '', dupefilter mode, the number n of its arguments, its n arguments). Per
#: group: the mode '' checks nothing, 'set' SADDs its one argument, 'bits' sets the
#: Bloom filter bits at its offsets; the entry is pushed if the dupefilter had not
#: seen it, and the lease is acked either way. Checking and pushing at once means
#: no fingerprint is ever recorded for a request that is not queued. Returns 1
#: (pushed) or 0 per group.
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
