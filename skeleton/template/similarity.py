"""Do two pages share a template? The check used to measure Algorithm 2.

A page's *chrome* is the set of its element paths near the root: each element
at most ``CHROME_DEPTH`` levels below ``<html>`` written as the path of
``tag#id.class`` steps from the root. Generated pages of one template share
this frame (header, navigation, sidebar, footer containers) whatever their
content; pages of another template (another generator, or a page type with
another layout) do not. Two pages share a template when the Jaccard index of
their chromes is at least ``SAME_TEMPLATE_JACCARD``. This is a measurement
aid, not part of the paper's algorithms.
"""
from __future__ import annotations

from lxml import etree

__all__ = ["CHROME_DEPTH", "SAME_TEMPLATE_JACCARD", "chrome", "chrome_similarity",
           "same_template"]

#: Element levels below ``<html>`` that make up a page's chrome.
CHROME_DEPTH = 3
#: Jaccard index of the chromes above which two pages share a template.
SAME_TEMPLATE_JACCARD = 0.5


def _step(el: etree._Element) -> str:
    tag = el.tag if isinstance(el.tag, str) else "#"
    ident = el.get("id")
    classes = sorted((el.get("class") or "").split())
    return tag + (f"#{ident}" if ident else "") + "".join(f".{c}" for c in classes)


def chrome(root: etree._Element | None, depth: int = CHROME_DEPTH) -> frozenset[str]:
    """The page's chrome paths (empty for no page); iterative, bounded depth."""
    if root is None:
        return frozenset()
    paths: set[str] = set()
    stack: list[tuple[etree._Element, str, int]] = [(root, _step(root), 0)]
    while stack:
        el, path, level = stack.pop()
        paths.add(path)
        if level >= depth:
            continue
        for child in el:
            if isinstance(child.tag, str):
                stack.append((child, f"{path}/{_step(child)}", level + 1))
    return frozenset(paths)


def chrome_similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard index of two chromes (0.0 when both are empty)."""
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def same_template(a: frozenset[str], b: frozenset[str],
                  threshold: float = SAME_TEMPLATE_JACCARD) -> bool:
    return chrome_similarity(a, b) >= threshold
