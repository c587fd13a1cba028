"""The development corpus (``../shared/corpus``): where its sites and truths are."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(os.environ.get("SKELETON_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus"))
FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "sites"
FARM = Path(__file__).resolve().parents[1] / "farm"
FARM_CACHE = Path(os.environ.get("SKELETON_FARM_CACHE", Path.home() / ".cache" / "skeleton-farm"))
#: the generator family of each corpus site (leave-one-generator-out holds out a family)
CORPUS_FAMILIES = {"postgresql15": "docbook", "debian-handbook": "docbook", "python311": "sphinx",
                   "apache24-en": "httpd-xslt", "tomcat10": "tomcat-xslt", "mkdocs": "mkdocs",
                   "mkdocs-material": "mkdocs", "pelican-notmyidea": "pelican"}


@dataclass
class CorpusSite:
    name: str
    truth: Path
    serve_dir: Path
    start_url: str
    scope: str


def corpus_sites() -> list[CorpusSite]:
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text())
    # the generated sites are served from the corpus folder itself (relative serve_dir)
    return [CorpusSite(Path(m["truth"]).stem, CORPUS / m["truth"], CORPUS / m["serve_dir"],
                       m["start_url"], m["crawl_scope_prefix"]) for m in manifest]


def fixture_sites() -> list[CorpusSite]:
    """The labelled sites of ``tests/sites`` and the integration tests' ``tinysite``."""
    out = []
    for truth in sorted([*FIXTURES.glob("*.truth.json"), FIXTURES.parent / "fixtures" / "tinysite.truth.json"]):
        name = truth.name.split(".")[0]
        out.append(CorpusSite(name, truth, truth.parent / name, "http://127.0.0.1:8000/index.html",
                              "http://127.0.0.1:8000/"))
    return out


def farm_sites() -> list[CorpusSite]:
    """The training farm's sites (``farm/truth/*.json``), served from the farm's cache
    (``python farm/build.py`` builds them there)."""
    out = []
    for truth in sorted((FARM / "truth").glob("*.json")):
        root = json.loads(truth.read_text())["root"]
        out.append(CorpusSite(truth.stem, truth, FARM_CACHE / "sites" / truth.stem, root,
                              root.split("://", 1)[0] + "://" + root.split("://", 1)[1].split("/", 1)[0] + "/"))
    return out


def labelled_sites() -> list[CorpusSite]:
    """Every labelled site whose pages are there to serve: the farm, the corpus, the fixtures."""
    return [cs for cs in (*farm_sites(), *corpus_sites(), *fixture_sites()) if cs.serve_dir.exists()]


#: the help of the ``--models`` option of the benchmarks that crawl with held-out models
MODELS_HELP = "a folder of held-out models by family (farm_loo.py --save-models)"


def family_of(site: CorpusSite) -> str:
    """The generator family of a labelled site: a farm site's ``meta.family``, a corpus
    site's :data:`CORPUS_FAMILIES` entry. The portal grammar's kinds are one family,
    ``portal``, and the fixtures of ``tests/sites`` another, ``fixtures`` (one generator,
    ``tests/sites/generator``): each is held out whole."""
    if site.truth.parent == FARM / "truth":
        meta = json.loads(site.truth.read_text())["meta"]
        # the portal kinds share one generator (farm/families/portal): held out together
        return "portal" if meta.get("generator") == "skeleton portal grammar" else meta["family"]
    if site.truth.parent == FIXTURES or site.name == "tinysite":
        return "fixtures"  # written by the project's own generator (tests/sites/generator)
    return CORPUS_FAMILIES.get(site.name, site.name)


def commit() -> str:
    """The checkout's short commit id, stamped into every results file."""
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).resolve().parents[1],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def serve(folder: Path, port: int = 8000) -> subprocess.Popen:
    """Serve ``folder`` with ``tests/sites/server.py`` (``python -m http.server`` plus
    ``_redirects`` rules and ``PATH@QUERY`` pages) on 127.0.0.1:``port``."""
    proc = subprocess.Popen([sys.executable, str(FIXTURES / "server.py"), str(folder), "--port", str(port),
                             "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    if proc.poll() is not None:
        raise SystemExit(f"cannot serve {folder} on 127.0.0.1:{port} (port busy?)")
    return proc


# -- helpers the benchmarks share ---------------------------------------------------------

def median_of(runs: list[dict], key: str) -> float | None:
    """The median of ``key`` over the runs that have it, rounded to 2 places (None if none)."""
    import statistics

    values = [r[key] for r in runs if r.get(key) is not None]
    return round(statistics.median(values), 2) if values else None


def bar_rows(bars: dict[str, bool], passed: str = "yes") -> list[str]:
    """A markdown table of a benchmark's bars: ``| bar | pass |``, one row each."""
    return ["| bar | pass |", "|---|---|", *(f"| {bar} | {passed if ok else 'NO'} |" for bar, ok in bars.items())]


def write_results(out: dict, results: Path, table: Path, render) -> None:  # type: ignore[no-untyped-def]
    """Write ``out`` as JSON to ``results`` and the markdown ``render`` makes of the
    JSON as written to ``table`` (docs tables come from the results files)."""
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    table.write_text(render(json.loads(results.read_text())))
    print(f"wrote {results} and {table}")
