"""Tracking parameters: query parameters that never change a page, stripped before a
link is requested.

The list is the one place the project names them (campaign tags, click ids, share
buttons, related-post and recommendation beacons). What is not on it is learned per
site from duplicate content (:mod:`skeleton.urlrules.duplicates`). Stripping uses
w3lib's ``url_query_cleaner``; the URL's other parameters keep their order.
"""
from __future__ import annotations

from urllib.parse import parse_qsl

from w3lib.url import url_query_cleaner

from skeleton.web.urls import split_url

__all__ = ["TRACKING_PARAMS", "TRACKING_PREFIXES", "is_tracking", "query_names", "strip_params",
           "strip_tracking"]

#: exact parameter names (compared lower-case)
TRACKING_PARAMS = frozenset({
    # click ids of ad and social networks
    "fbclid", "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "twclid",
    "ttclid", "li_fat_id", "igshid", "epik", "s_cid", "scid", "cmpid", "icid", "ncid",
    # analytics and mail campaigns
    "_ga", "_gl", "_hsenc", "_hsmi", "hsctatracking", "mc_cid", "mc_eid", "mkt_tok",
    "oly_anon_id", "oly_enc_id", "vero_id", "vero_conv", "wickedid", "trk", "trkcampaign",
    "spm", "__twitter_impression",
    # referrers and share buttons (WordPress Jetpack: ?share=twitter&nb=1)
    "ref", "ref_", "ref_src", "referrer", "share", "nb", "replytocom",
    # shops' search-rank and recommendation beacons
    "qid", "sr",
})
#: parameter name prefixes (compared lower-case)
TRACKING_PREFIXES = ("utm_", "pf_rd_", "pd_rd_", "relatedposts_", "mtm_", "pk_", "hmb_", "ga_")


def is_tracking(name: str) -> bool:
    """Is the query parameter ``name`` a tracking parameter?"""
    low = name.lower()
    return low in TRACKING_PARAMS or low.startswith(TRACKING_PREFIXES)


def query_names(url: str) -> list[str]:
    """The names of ``url``'s query parameters, in order, once each; none for an
    unparsable URL (:func:`skeleton.web.urls.split_url`)."""
    parts = split_url(url)
    if parts is None:
        return []
    try:
        pairs = parse_qsl(parts.query, keep_blank_values=True)
    except ValueError:
        return []
    return list(dict.fromkeys(name for name, _ in pairs))


def strip_params(url: str, names: set[str] | frozenset[str]) -> str:
    """``url`` without the query parameters ``names`` (exact names); ``url`` itself
    when it has none of them or is unparsable (the crawl skips it anyway). A URL
    left with an empty query loses its ``?``."""
    present = [n for n in query_names(url) if n in names]
    if not present:
        return url
    try:
        cleaned = url_query_cleaner(url, present, remove=True, unique=False, keep_fragments=False)
    except ValueError:
        return url
    return cleaned[:-1] if cleaned.endswith("?") else cleaned


def strip_tracking(url: str) -> str:
    """``url`` without its tracking parameters (:func:`is_tracking`); ``url`` itself
    when it is unparsable."""
    if "?" not in url:
        return url
    return strip_params(url, {n for n in query_names(url) if is_tracking(n)})
