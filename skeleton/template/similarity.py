"""Do two pages share a template? The check used to measure Algorithm 2.

This is a measurement aid, not part of the paper's algorithms (Alarte et al.
leave "shares the template" to the template extractor, Section 4).

A page's *chrome* is the frame its generator puts around the content:

* the *frame root* is ``<body>``, or, while it has exactly one element child
  (a page wrapper such as ``<div id="wrapper">``), that child;
* the chrome holds one ``tag#id.class`` step per element child of the frame
  root (header, navigation, sidebar, content slot, footer, scripts) and one
  ``parent/child`` path per element child of each of them, except inside the
  *content slot*, the child holding the most text (first on ties, and only when
  the frame root has two children or more): what the slot holds is content.

Deliberately left out: ``<head>`` (metadata, not chrome), the attributes of
``<html>``, ``<body>`` and wrappers (generators flag the page *type* there, as
``<body id="index-page">`` or ``<body class="homepage">``, without changing the
frame; written into every path below they made a home page share nothing with
its menu pages), and the inside of the content slot (a reference page and a
chapter of one DocBook manual have different sections and page-specific ids,
``div#VACUUMLO.refentry/div#id-1.11.8.4.4.5.refsect1``, in the same frame).
Two pages share a template when the Jaccard index of their chromes is at least
``SAME_TEMPLATE_JACCARD``.
"""
from __future__ import annotations

from lxml import etree

__all__ = ["SAME_TEMPLATE_JACCARD", "frame_root", "chrome", "chrome_similarity",
           "same_template"]

#: Jaccard index of the chromes above which two pages share a template.
SAME_TEMPLATE_JACCARD = 0.5


def _step(el: etree._Element) -> str:
    ident = el.get("id")
    classes = sorted((el.get("class") or "").split())
    return str(el.tag) + (f"#{ident}" if ident else "") + "".join(f".{c}" for c in classes)


def _elements(el: etree._Element) -> list[etree._Element]:
    return [child for child in el if isinstance(child.tag, str)]


def frame_root(root: etree._Element) -> etree._Element:
    """``<body>`` (the root itself without one), then down single-child wrappers
    (iterative: a page nested 5 000 levels deep costs no recursion)."""
    body = root if root.tag == "body" else next(root.iter("body"), root)
    kids = _elements(body)
    while len(kids) == 1:
        body = kids[0]
        kids = _elements(body)
    return body


def _text_size(el: etree._Element) -> int:
    return sum(len(text.strip()) for text in el.itertext())


def chrome(root: etree._Element | None) -> frozenset[str]:
    """The page's chrome (see the module docstring); empty for no page."""
    if root is None or not isinstance(root.tag, str):
        return frozenset()
    kids = _elements(frame_root(root))
    slot = max(range(len(kids)), key=lambda i: (_text_size(kids[i]), -i)) if len(kids) > 1 else -1
    paths: set[str] = set()
    for i, kid in enumerate(kids):
        step = _step(kid)
        paths.add(step)
        if i != slot:
            paths.update(f"{step}/{_step(child)}" for child in _elements(kid))
    return frozenset(paths)


def chrome_similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Jaccard index of two chromes (0.0 when both are empty)."""
    union = a | b
    return len(a & b) / len(union) if union else 0.0


def same_template(a: frozenset[str], b: frozenset[str],
                  threshold: float = SAME_TEMPLATE_JACCARD) -> bool:
    return chrome_similarity(a, b) >= threshold
