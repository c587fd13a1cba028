"""benchmarks/lean.py: the stats it reads from a crawl log, and the ratio and bar it reports."""
from __future__ import annotations

from benchmarks.lean import BAR, final_stats, markdown, summarize, with_port

LOG = """2026-01-01 00:00:00 [scrapy.statscollectors] INFO: Dumping Scrapy stats:
{'downloader/request_count': 85,
 'downloader/response_status_count/200': 82,
 'downloader/response_status_count/301': 3,
 'finish_reason': 'finished',
 'skeleton/pages': 82,
 'start_time': datetime.datetime(2026, 1, 1, 0, 0, tzinfo=datetime.timezone.utc)}
2026-01-01 00:00:01 [scrapy.core.engine] INFO: Spider closed (finished)
"""


def run(crawl: str, wall: float, pages: int, code: int = 0) -> dict:
    return {"crawl": crawl, "repeat": 0, "wall_s": wall, "exit_code": code, "rss_peak_mb": 100.0,
            "maxrss_mb": 100.0, "redis_rss_peak_mb": None, "pages_200": pages, "requests": pages,
            "skeleton_pages": None, "finish_reason": "finished", "load_1min": 1.0}


def test_final_stats_reads_the_last_dump() -> None:
    stats = final_stats("Dumping Scrapy stats:\n{'downloader/request_count': 1}\n" + LOG)
    assert stats == {"pages_200": 82, "requests": 85, "skeleton_pages": 82, "finish_reason": "finished"}
    assert final_stats("no dump")["pages_200"] is None


def test_with_port_rewrites_the_corpus_port() -> None:
    assert with_port("http://127.0.0.1:8000/en/index.html", 4321) == "http://127.0.0.1:4321/en/index.html"


def test_ratio_is_median_skeleton_over_median_plain() -> None:
    runs = [run("plain", 10.0, 100), run("plain", 12.0, 100), run("plain", 11.0, 100),
            run("skeleton", 13.0, 50), run("skeleton", 14.0, 50), run("skeleton", 99.0, 50)]
    summary = summarize(runs)
    assert summary["wall_ratio"] == round(14.0 / 11.0, 2) and summary["wall_ratio"] <= BAR
    assert summary["pass"] and summary["per_page_ratio"] == round((14.0 / 50) / (11.0 / 100), 2)
    failed = summarize([run("plain", 10.0, 100), run("skeleton", 11.0, 100, code=1)])
    assert not failed["pass"] and not failed["all_exit_0"]
    out = {"command": "python benchmarks/lean.py", "commit": "x", "settings": [], "skeleton_extra": [],
           "repeat": 3, "load_avg_1min": [1.0, 1.0], "cpus": 2,
           "sites": {"s": {"truth_nodes": 1, "not_in_tree": 0, "runs": runs, **summary}}}
    assert "| s | 11.0 | 14.0 | 1.27 | pass |" in markdown(out)


def test_queue_entry_sizes_give_median_p90_and_max() -> None:
    from benchmarks.redis_cost import entry_sizes

    assert entry_sizes([]) == {"entries": 0, "median": None, "p90": None, "max": None}
    sizes = entry_sizes([300, 100, 200, 1000, 400, 500, 600, 700, 800, 900])
    assert sizes == {"entries": 10, "median": 550.0, "p90": 900, "max": 1000}
    assert entry_sizes([42])["p90"] == 42
