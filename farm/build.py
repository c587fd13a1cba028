#!/usr/bin/env python3
"""Build the training farm: labelled sites from real generators and themes.

    python farm/build.py                    # every family: install its tools, build, check
    python farm/build.py --family sphinx    # one family
    python farm/build.py sphinx-furo        # named sites
    python farm/build.py --list             # the sites and families

Each family is a module ``farm/families/<family>.py`` with

* ``FAMILY``, ``KIND`` (``docs``, ``blog``, ``docs+blog``, ``portal``), ``GENERATOR``;
* ``SITES``: ``{site name: description}``;
* ``build(name, out, tools) -> dict``: writes the served site into ``out`` (an empty
  folder) and returns its truth ``{"root", "edges", "meta": {"not_in_tree": [...], ...}}``
  read from the generator's content model (never from the HTML), with URLs
  ``http://127.0.0.1:8000/`` + path in ``out`` (``farm.check.url_of``).

Its tools are pinned beside it and installed into the cache by this script:
``<family>.requirements.txt`` (PyPI, a virtualenv per family: ``tools.bin("sphinx-build")``),
``<family>.package.json`` and ``<family>.package-lock.json`` (npm: ``tools.node_bin("hexo")``),
``APT`` (Debian packages, installed with apt-get when missing).

The built sites go to the cache (``$SKELETON_FARM_CACHE``, default ``~/.cache/skeleton-farm``),
never into the repository; their truths to ``farm/truth/<site>.json``, whose ``meta`` also
records the family, kind, generator and the site's size. The root of the truth is the start
URL; the scope is the whole server. Every truth is checked against the HTML (``farm.check``).
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

FARM = Path(__file__).resolve().parent
sys.path.insert(0, str(FARM.parent))

from farm.check import check_site  # noqa: E402

CACHE = Path(os.environ.get("SKELETON_FARM_CACHE", Path.home() / ".cache" / "skeleton-farm"))
TRUTH = FARM / "truth"


@dataclass
class Tools:
    """Where a family's installed tools are."""
    family: str
    cache: Path

    @property
    def venv(self) -> Path:
        return self.cache / "tools" / f"venv-{self.family}"

    @property
    def npm(self) -> Path:
        return self.cache / "tools" / f"npm-{self.family}"

    def bin(self, name: str) -> str:
        """A console script of the family's virtualenv."""
        return str(self.venv / "bin" / name)

    def node_bin(self, name: str) -> str:
        """A command of the family's npm packages."""
        return str(self.npm / "node_modules" / ".bin" / name)

    def run(self, *cmd: str, cwd: Path | None = None, env: dict | None = None) -> None:
        """Run a build command; its output is shown only when it fails."""
        full = {**os.environ, "PATH": f"{self.venv / 'bin'}:{os.environ['PATH']}", **(env or {})}
        p = subprocess.run(list(cmd), cwd=cwd, env=full, capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")


def families() -> dict[str, object]:
    out = {}
    for f in sorted((FARM / "families").glob("*.py")):
        if f.stem.startswith("_"):
            continue
        out[f.stem] = importlib.import_module(f"farm.families.{f.stem}")
    return out


def install(mod, tools: Tools) -> None:
    fam = tools.family
    req = FARM / "families" / f"{fam}.requirements.txt"
    stamp = tools.venv / ".installed"
    if req.exists() and (not stamp.exists() or stamp.read_text() != req.read_text()):
        shutil.rmtree(tools.venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(tools.venv)], check=True)
        subprocess.run([str(tools.venv / "bin" / "pip"), "install", "-q", "-r", str(req)], check=True)
        stamp.write_text(req.read_text())
    pkg = FARM / "families" / f"{fam}.package.json"
    lock = FARM / "families" / f"{fam}.package-lock.json"
    nstamp = tools.npm / ".installed"
    if pkg.exists() and (not nstamp.exists() or nstamp.read_text() != pkg.read_text() + (lock.read_text() if lock.exists() else "")):
        shutil.rmtree(tools.npm, ignore_errors=True)
        tools.npm.mkdir(parents=True)
        shutil.copy(pkg, tools.npm / "package.json")
        if lock.exists():
            shutil.copy(lock, tools.npm / "package-lock.json")
        subprocess.run(["npm", "ci" if lock.exists() else "install", "--no-audit", "--no-fund", "--silent"],
                       cwd=tools.npm, check=True)
        nstamp.write_text(pkg.read_text() + (lock.read_text() if lock.exists() else ""))
    missing = [p for p in getattr(mod, "APT", []) if subprocess.run(["dpkg", "-s", p], capture_output=True).returncode]
    if missing:
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=True)


def build_site(name: str, mod, tools: Tools) -> dict:
    """Build one site into the cache, check its truth and write it; its stats."""
    out = CACHE / "sites" / name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    t = time.perf_counter()
    truth = mod.build(name, out, tools)
    truth.setdefault("meta", {})
    truth["meta"].setdefault("not_in_tree", [])
    truth["meta"].update({"site": name, "family": mod.FAMILY, "kind": mod.KIND, "generator": mod.GENERATOR,
                          "description": mod.SITES[name]})
    stats = check_site(truth, out)
    truth["meta"]["stats"] = stats
    TRUTH.mkdir(exist_ok=True)
    (TRUTH / f"{name}.json").write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n")
    print(f"{name:28} {mod.FAMILY:12} " + " ".join(f"{k}={v}" for k, v in stats.items())
          + f" ({time.perf_counter() - t:.1f} s)", flush=True)
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sites", nargs="*")
    ap.add_argument("--family", action="append", default=[])
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    fams = families()
    if args.list:
        for fam, mod in fams.items():
            for name, desc in mod.SITES.items():
                print(f"{name:28} {fam:12} {mod.KIND:10} {desc}")
        return
    failed = []
    for fam, mod in fams.items():
        names = [n for n in mod.SITES if (not args.sites or n in args.sites)
                 and (not args.family or fam in args.family)]
        if not names:
            continue
        tools = Tools(fam, CACHE)
        install(mod, tools)
        for name in names:
            try:
                build_site(name, mod, tools)
            except (AssertionError, RuntimeError) as e:
                failed.append(name)
                print(f"{name}: FAILED {e}", file=sys.stderr, flush=True)
    if failed:
        raise SystemExit(f"failed: {' '.join(failed)}")


if __name__ == "__main__":
    main()
