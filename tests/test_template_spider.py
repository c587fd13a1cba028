"""``scrapy crawl template`` on a fixture site served locally."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import FAST, FIXTURES, run_scrapy
from scrapy.exceptions import UsageError

from skeleton.spiders.template import TemplateSpider

SITE = FIXTURES / "templatesite"


def test_template_spider_finds_the_3_cs(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    done = run_scrapy(["crawl", "template", "-a", f"key={base}index.html", "-O", "cs.json", *FAST],
                      tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    [item] = json.loads((tmp_path / "cs.json").read_text("utf-8"))
    assert [u[len(base):] for u in item["pages"]] == ["contact.html", "privacy.html", "news/"]
    assert item["loaded"] == 4 and item["complete"] and item["size"] == 3 and item["n"] == 3
    assert base + "products/" in item["menu"]
    assert "'template/loaded': 4" in done.stderr
    assert not (tmp_path / ".skeleton-data").exists()  # no Redis


def test_template_spider_n_and_missing_key_page(serve, tmp_path: Path) -> None:
    base = serve(SITE)
    done = run_scrapy(["crawl", "template", "-a", f"key={base}index.html", "-a", "n=10",
                       "-O", "cs.json", *FAST], tmp_path)
    [item] = json.loads((tmp_path / "cs.json").read_text("utf-8"))
    assert item["loaded"] == 7 and len(item["pages"]) == 5 and not item["complete"]
    done = run_scrapy(["crawl", "template", "-a", f"key={base}missing.html", "-O", "none.json",
                       *FAST], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    [item] = json.loads((tmp_path / "none.json").read_text("utf-8"))
    assert item["pages"] == [] and item["loaded"] == 1


@pytest.mark.parametrize("args,message", [
    ({"n": "3"}, "needs a key page"),
    ({"key": "ftp://x/"}, "key must be an absolute http(s) URL"),
    ({"key": "http://x/", "n": "0"}, "n must be at least 1"),
    ({"key": "http://x/", "n": "two"}, "n must be an integer"),
    ({"key": "http://x/", "max_pages": "0"}, "max_pages must be at least 1"),
    ({"key": "http://x/", "max_page": "3"}, "unknown argument 'max_page' for the template spider: did you mean 'max_pages'?")])
def test_template_spider_bad_arguments(args: dict, message: str) -> None:
    with pytest.raises(UsageError, match=re.escape(message)):
        TemplateSpider(**args)
