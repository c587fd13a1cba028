"""The crawl's aliases in Redis (``:aliases``: a URL -> the URL it leads to).

A redirect is recorded by :meth:`AliasStore.record_redirect`, one script call
(:data:`ALIAS_SCRIPT`) that refuses an alias closing a loop; the URL-variants
middleware and the tree pipeline write theirs with their batches
(:mod:`skeleton.store.variants`, :mod:`skeleton.store.records`); the tree is read
with them applied (:func:`skeleton.store.tree.stored_aliases`).
"""
from __future__ import annotations

import redis

from skeleton.store.keys import CrawlKeys

__all__ = ["ALIAS_SCRIPT", "AliasStore"]

#: KEYS: aliases. ARGV: source, target, hops. Follows the aliases from the target
#: (at most ``hops``); if they lead back to the source, the redirect closes a loop:
#: returns 1 and records nothing; else records ``source -> target``, returns 0.
ALIAS_SCRIPT = """
local node = ARGV[2]
for i = 1, tonumber(ARGV[3]) do
  if node == ARGV[1] then return 1 end
  node = redis.call('HGET', KEYS[1], node)
  if not node then break end
end
if node == ARGV[1] then return 1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 0
"""


class AliasStore:
    """One crawl's redirects, recorded as aliases."""

    def __init__(self, server: redis.Redis, keys: CrawlKeys) -> None:
        self.server = server
        self.keys = keys
        self.script = server.register_script(ALIAS_SCRIPT)

    def record_redirect(self, source: str, target: str, hops: int) -> bool:
        """Record ``source -> target`` unless the aliases from ``target`` lead back to
        ``source`` within ``hops`` (a loop: True, nothing recorded)."""
        return bool(self.script(keys=[self.keys.aliases], args=[source, target, hops]))
