"""The forum test site (see ../build.py)."""
from __future__ import annotations

import datetime

from common import (EXT, MONTHS, WEEKDAYS, esc, paragraph, html5, Site)


# ================================================================== forum
# phpBB2-like board: index table with category rows (not links) and forum
# rows (a.forumtitle, description, subforum links, last-post links), forum
# pages with subforum and topic tables, topic pages with posts.  Flat file
# names in the site root (viewforum-f3.html, viewtopic-t1012.html).

FORUM = [
    ("General", [
        ("Announcements", "News and announcements from the board team", [], [
            "Board rules - please read before posting (updated March 2024)",
            "Scheduled maintenance this Saturday: forum offline 02:00-04:00 UTC",
            "New feature: you can now attach images directly to your posts"]),
        ("Introductions", "New here? Say hello and tell us about your setup", [], [
            "Hi all, long time lurker from Rotterdam finally registering",
            "New member here - building my first PC after 15 years on laptops",
            "Hello from a retired electrician getting into home automation",
            "Greetings! Student looking to learn Linux and self-hosting"]),
        ("Off-topic", "Anything that does not fit anywhere else", [], [
            "What are you listening to while you work? Post your playlists",
            "Show us your desk setup, 2024 edition (pictures welcome)",
            "Anyone else completely addicted to mechanical keyboards now?",
            "Best budget office chair for long gaming sessions and bad backs"])]),
    ("Hardware", [
        ("CPUs and motherboards", "Processors, chipsets, BIOS and overclocking", [], [
            "Ryzen 7 7800X3D idle temperatures around 50°C - is that normal?",
            "B650 vs X670 motherboard: is the extra money worth it for gaming?",
            "PC won't POST after BIOS update, orange DRAM light on my board",
            "Undervolting an i7-13700K: my results and stability testing guide"]),
        ("Graphics cards", "GPUs, drivers and monitors", [], [
            "RTX 4070 vs RX 7800 XT for 1440p gaming - which one should I buy?",
            "Coil whine on a brand new GPU, should I return it or live with it?",
            "Black screen after driver update, only fixed by reinstalling Windows?",
            "How much does PCIe 4.0 vs 3.0 actually matter for a mid-range card?",
            "Finally upgraded from a GTX 970 after nine years, here are my benchmarks"]),
        ("Storage", "Hard drives, SSDs, NAS and backups", [
            ("SSDs and NVMe", "Solid state drives, firmware and benchmarks", [
                "Firmware issue on my 2 TB NVMe drive: check your health percentage now",
                "Is a DRAM-less NVMe SSD fine for a gaming-only build?",
                "PCIe 5.0 SSD heatsink: do I really need the big one?",
                "SSD shows only half its capacity in Disk Management, help please"]),
            ("NAS and home servers", "Self-built and off-the-shelf network storage", [
                "Building a low-power NAS with TrueNAS Scale: parts list and power draw",
                "Synology vs self-built Unraid box for a family photo library",
                "RAID 5 rebuild failed halfway, how do I recover my data?",
                "Which hard drives do you trust for 24/7 operation in 2024?"])], [
            "Best way to clone an old HDD to a new drive without reinstalling?",
            "External backup drive keeps disconnecting during large file copies",
            "How do you organise backups? 3-2-1 strategy for home users"])]),
    ("Software", [
        ("Linux", "Distributions, desktop environments and the command line", [], [
            "Switching from Windows to Fedora for daily use: my first month",
            "Wi-Fi adapter not detected on Ubuntu 22.04 after kernel update",
            "Wayland vs X11 in 2024: is it finally ready for NVIDIA users?",
            "Bash script to rename thousands of photos by EXIF date"]),
        ("Windows", "Windows 10 and 11 help and tweaks", [], [
            "Windows 11 update stuck at 35 percent for hours, what now?",
            "How to disable the web search results in the Start menu for good",
            "Blue screen DPC_WATCHDOG_VIOLATION after installing a new SSD",
            "Is it still worth doing a clean install instead of upgrading?"]),
        ("Programming", "Code, tools and careers", [
            ("Python", "Everything Python: scripts, data and web", [
                "Why is my pandas groupby so slow on ten million rows?",
                "Virtual environments, pipx, conda: what should I actually use?",
                "Async web scraping with aiohttp keeps hitting connection limits",
                "Type hints in a large codebase: worth the effort or just noise?"]),
            ("Web development", "HTML, CSS, JavaScript and backends", [
                "CSS grid vs flexbox for a dashboard layout, which one and why?",
                "My first full-stack project: a recipe site with Django and HTMX",
                "How do you handle authentication in a small single-page app?",
                "Static site generators compared: Hugo, Eleventy and Astro"])], [
            "Which language should a complete beginner learn first in 2024?",
            "Git merge vs rebase: explain it like I am five please",
            "Share your favourite code editor setup and extensions"])]),
]
FORUM_USERS = ["nightowl", "bitflipper", "Marta_K", "oldschool_dave", "zeroKelvin", "pixelpusher",
               "tuxfan88", "ReneV", "sparky", "quietfan", "admin", "moderator_jo"]
FORUM_NOISE = [("FAQ", "faq.html"), ("Search", "search.html"), ("Memberlist", "memberlist.html"),
               ("The team", "team.html"), ("Register", "ucp-register.html"),
               ("Log in", "ucp-login.html"), ("View unanswered posts", "search-unanswered.html"),
               ("View active topics", "search-active.html")]
FORUM_PER_PAGE = 6
FORUM_CSS = (".forumline{background:#fff;border:1px #006699 solid}td.row1{background:#EFEFEF}"
             "td.row2{background:#DEE3E7}td.catLeft{background:#C7D0D7}.gensmall{font-size:10px}")


def forum_add_forum(m, name, desc, up, cat, titles):
    f = {"name": name, "desc": desc, "up": up, "cat": cat, "subs": [], "topics": [],
         "id": len(m["forums"]) + 1}
    f["path"] = f"viewforum-f{f['id']}.html"
    m["forums"].append(f)
    for title in titles:
        t = {"title": title, "forum": f, "id": 1001 + len(m["topics"])}
        t["path"] = f"viewtopic-t{t['id']}.html"
        f["topics"].append(t)
        m["topics"].append(t)
    return f


def forum_model(rng):
    m = {"cats": [], "forums": [], "topics": [], "post_id": 2300}
    for cname, forums in FORUM:
        cat = {"name": cname, "forums": [], "id": len(m["cats"]) + 1}
        m["cats"].append(cat)
        for name, desc, subs, titles in forums:
            f = forum_add_forum(m, name, desc, None, cat, titles)
            cat["forums"].append(f)
            for sname, sdesc, stitles in subs:
                f["subs"].append(forum_add_forum(m, sname, sdesc, f, cat, stitles))
    start = datetime.datetime(2024, 3, 16, 21, 12)
    for t in m["topics"]:
        n = rng.randint(2, 10)
        t["posts"] = []
        when = start - datetime.timedelta(hours=rng.randint(2, 2000))
        for _ in range(n):
            m["post_id"] += rng.randint(1, 9)
            t["posts"].append({"id": m["post_id"], "user": rng.randrange(len(FORUM_USERS)),
                               "when": when, "text": paragraph(rng, 1, 3)})
            when += datetime.timedelta(minutes=rng.randint(5, 600))
        t["views"] = rng.randint(40, 9000)
    return m


def forum_user(uid):
    return f'<a href="./memberlist-u{uid + 1}.html">{FORUM_USERS[uid]}</a>'


def forum_time(when):
    h = when.hour % 12 or 12
    return (f'{WEEKDAYS[when.weekday()][:3]} {MONTHS[when.month - 1][:3]} {when.day}, {when.year} '
            f'{h}:{when.minute:02d} {"am" if when.hour < 12 else "pm"}')


def forum_pages_of(t):
    return -(-len(t["posts"]) // FORUM_PER_PAGE)


def forum_page_path(t, n):
    return t["path"] if n == 1 else t["path"].replace(".html", f"-start{(n - 1) * FORUM_PER_PAGE}.html")


def forum_last_link(t):
    """'last post' link: the last page of the topic, with a #p fragment."""
    last = t["posts"][-1]
    p = forum_page_path(t, forum_pages_of(t))
    return (f'{forum_time(last["when"])}<br>{forum_user(last["user"])} <a href="./{p}#p{last["id"]}">'
            f'<img src="{EXT}/phpbb/icon_latest_reply.gif" alt="View latest post" title="View latest post"></a>')


def forum_all_topics(f):
    return f["topics"] + [t for s in f["subs"] for t in s["topics"]]


def forum_row(f):
    topics = forum_all_topics(f)
    last = max(topics, key=lambda t: t["posts"][-1]["when"])
    subs = ""
    if f["subs"]:
        subs = ('<br><span class="gensmall"><b>Subforums:</b> ' + ", ".join(
            f'<a class="subforum" href="./{s["path"]}">{esc(s["name"])}</a>' for s in f["subs"]) + "</span>")
    return f"""<tr>
<td class="row1" align="center" valign="middle" height="50"><img src="{EXT}/phpbb/folder_big.gif" alt="No new posts"></td>
<td class="row1" width="100%"><a class="forumtitle" href="./{f['path']}">{esc(f['name'])}</a><br><span class="genmed">{esc(f['desc'])}</span>{subs}</td>
<td class="row2" align="center"><span class="gensmall">{len(topics)}</span></td>
<td class="row2" align="center"><span class="gensmall">{sum(len(t['posts']) for t in topics)}</span></td>
<td class="row2" align="center" nowrap="nowrap"><span class="gensmall">{forum_last_link(last)}</span></td>
</tr>"""


def forum_page(title, body, crumbs=""):
    links = " &nbsp; ".join(f'<a href="./{p}" class="mainmenu">{t}</a>' for t, p in FORUM_NOISE[:6])
    online = ", ".join(forum_user(u) for u in (0, 3, 6, 10))
    page = f"""<body bgcolor="#E5E5E5" text="#000000" link="#006699" vlink="#5493B4">
<a name="top"></a>
<table width="100%" cellspacing="0" cellpadding="10" border="0" align="center"><tr><td class="bodyline">
<table width="100%" cellspacing="0" cellpadding="0" border="0">
<tr><td><a href="./index.html"><img src="{EXT}/phpbb/logo_phpBB.gif" border="0" alt="HardwareTalk Forum Index"></a></td>
<td align="center" width="100%" valign="middle"><span class="maintitle">HardwareTalk</span><br><span class="gen">PC hardware and software help since 2004</span><br>
<table cellspacing="0" cellpadding="2" border="0"><tr><td align="center" valign="top" nowrap="nowrap"><span class="mainmenu">{links}</span></td></tr></table></td></tr>
</table>
<br>
<table width="100%" cellspacing="0" cellpadding="2" border="0"><tr>
<td align="left" valign="bottom"><span class="gensmall"><a href="./search-unanswered.html" class="gensmall">View unanswered posts</a> | <a href="./search-active.html" class="gensmall">View active topics</a></span><br>
<span class="nav">{crumbs or '<a href="./index.html" class="nav">HardwareTalk Forum Index</a>'}</span></td>
<td align="right" valign="bottom"><span class="gensmall"><a href="#" class="gensmall">Mark all forums read</a></span></td></tr></table>
{body}
<br>
<table width="100%" cellpadding="3" cellspacing="1" border="0" class="forumline">
<tr><td class="catHead" colspan="2"><span class="cattitle"><a href="./search-active.html" class="cattitle">Who is online</a></span></td></tr>
<tr><td class="row1" align="left"><span class="gensmall">In total there are 23 users online :: 4 registered, 1 hidden and 18 guests<br>Registered users: {online}</span></td></tr>
</table>
<div align="center"><span class="copyright"><a href="javascript:deleteCookies()">Delete all board cookies</a> &middot; All times are UTC<br>
Powered by <a href="{EXT}/phpbb" target="_phpbb" class="copyright">phpBB</a> &copy; 2001, 2005 phpBB Group</span></div>
</td></tr></table>
</body>"""
    head = f'<link rel="stylesheet" href="{EXT}/phpbb/subSilver.css" type="text/css">\n'
    return html5(f"HardwareTalk :: {title}", page, FORUM_CSS, head=head).replace(
        "<!DOCTYPE html>", '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">')


def forum_crumbs(f):
    chain = []
    while f:
        chain.insert(0, f)
        f = f["up"]
    parts = ['<a href="./index.html" class="nav">HardwareTalk Forum Index</a>',
             f'<a href="./index.html#c{chain[0]["cat"]["id"]}" class="nav">{esc(chain[0]["cat"]["name"])}</a>']
    parts += [f'<a href="./{x["path"]}" class="nav">{esc(x["name"])}</a>' for x in chain]
    return " &raquo; ".join(parts)


def forum_index(s, m):
    rows = []
    for cat in m["cats"]:
        rows.append(f'<tr><td class="catLeft" colspan="2" height="28"><a name="c{cat["id"]}"></a>'
                    f'<span class="cattitle">{esc(cat["name"])}</span></td><td class="rowpic" colspan="3" '
                    f'align="right">&nbsp;</td></tr>')
        for f in cat["forums"]:
            rows.append(forum_row(f))
            s.edge("index.html", f["path"])
    body = f"""<table width="100%" cellpadding="2" cellspacing="1" border="0" class="forumline">
<tr><th colspan="2" class="thCornerL" height="25" nowrap="nowrap">&nbsp;Forum&nbsp;</th><th width="50" class="thTop" nowrap="nowrap">&nbsp;Topics&nbsp;</th>
<th width="50" class="thTop" nowrap="nowrap">&nbsp;Posts&nbsp;</th><th class="thCornerR" nowrap="nowrap">&nbsp;Last Post&nbsp;</th></tr>
{chr(10).join(rows)}
</table>
<table width="100%" cellspacing="0" border="0" align="center" cellpadding="2"><tr><td align="left"><span class="gensmall">Our users have posted a total of <b>{sum(len(t['posts']) for t in m['topics'])}</b> articles. The newest registered user is {forum_user(9)}</span></td></tr></table>"""
    s.add("index.html", forum_page("Index", body))


def forum_topic_row(t, sticky=False):
    pages = forum_pages_of(t)
    goto = ""
    if pages > 1:
        goto = ' [ Goto page: ' + ", ".join(f'<a href="./{forum_page_path(t, n)}">{n}</a>'
                                             for n in range(1, pages + 1)) + " ]"
    label = "<b>Announcement:</b> " if sticky else ""
    first = t["posts"][0]
    return f"""<tr>
<td class="row1" align="center" valign="middle" width="20"><img src="{EXT}/phpbb/folder{'_announce' if sticky else ''}.gif" alt="No new posts"></td>
<td class="row1" width="100%"><span class="topictitle">{label}<a href="./{t['path']}" class="topictitle">{esc(t['title'])}</a></span><span class="gensmall">{goto}</span></td>
<td class="row2" align="center" valign="middle"><span class="postdetails">{len(t['posts']) - 1}</span></td>
<td class="row3" align="center" valign="middle"><span class="name">{forum_user(first['user'])}</span></td>
<td class="row2" align="center" valign="middle"><span class="postdetails">{t['views']}</span></td>
<td class="row3Right" align="center" valign="middle" nowrap="nowrap"><span class="postdetails">{forum_last_link(t)}</span></td>
</tr>"""


def forum_forum(s, m, f):
    parts = []
    if f["subs"]:
        parts.append('<table width="100%" cellpadding="2" cellspacing="1" border="0" class="forumline">'
                     '<tr><th colspan="2" class="thCornerL">&nbsp;Subforums&nbsp;</th><th class="thTop">'
                     'Topics</th><th class="thTop">Posts</th><th class="thCornerR">Last Post</th></tr>\n'
                     + "\n".join(forum_row(x) for x in f["subs"]) + "\n</table><br>")
    rules = m["topics"][0]
    rows = ([forum_topic_row(rules, sticky=True)] if f["topics"][0] is not rules else [])
    rows += [forum_topic_row(t) for t in f["topics"]]
    parts.append(f"""<table width="100%" cellspacing="2" cellpadding="2" border="0" align="center">
<tr><td align="left" valign="bottom"><a href="./ucp-login.html"><img src="{EXT}/phpbb/post.gif" border="0" alt="Post new topic"></a></td>
<td align="right" valign="bottom"><span class="gensmall">Page <b>1</b> of <b>1</b></span></td></tr></table>
<table border="0" cellpadding="4" cellspacing="1" width="100%" class="forumline">
<tr><th colspan="2" align="center" height="25" class="thCornerL" nowrap="nowrap">&nbsp;Topics&nbsp;</th><th width="50" align="center" class="thTop" nowrap="nowrap">&nbsp;Replies&nbsp;</th>
<th width="100" align="center" class="thTop" nowrap="nowrap">&nbsp;Author&nbsp;</th><th width="50" align="center" class="thTop" nowrap="nowrap">&nbsp;Views&nbsp;</th><th align="center" class="thCornerR" nowrap="nowrap">&nbsp;Last Post&nbsp;</th></tr>
{chr(10).join(rows)}
</table>
<form method="get" action="./index.html"><span class="gensmall">Jump to: <select name="f">{''.join(f'<option value="{x["id"]}">{esc(x["name"])}</option>' for x in m['forums'])}</select> <input type="submit" value="Go"></span></form>""")
    s.add(f["path"], forum_page(f["name"], "\n".join(parts), forum_crumbs(f)))
    for x in f["subs"]:
        s.edge(f["path"], x["path"])
    for t in f["topics"]:
        s.edge(f["path"], t["path"])


def forum_post_html(t, post, first):
    u = post["user"]
    subject = t["title"] if first else "Re: " + t["title"]
    sig = (f'<br>_________________<br><a href="{EXT}/sig/{FORUM_USERS[u].lower()}" target="_blank" '
           f'class="postlink">My rig on PCPartPicker</a>') if u % 3 == 0 else ""
    return f"""<tr>
<td width="150" align="left" valign="top" class="row1"><span class="name"><a name="p{post['id']}"></a><b>{forum_user(u)}</b></span><br>
<span class="postdetails">{'Site Admin' if FORUM_USERS[u] == 'admin' else 'Member'}<br>Joined: {MONTHS[u % 12][:3]} {2005 + u}<br>Posts: {37 * (u + 3)}</span></td>
<td class="row1" width="100%" height="28" valign="top"><table width="100%" border="0" cellspacing="0" cellpadding="0">
<tr><td width="100%"><a href="#p{post['id']}"><img src="{EXT}/phpbb/icon_minipost.gif" alt="Post"></a><span class="postdetails">Posted: {forum_time(post['when'])}<span class="gen">&nbsp;</span>&nbsp; &nbsp;Post subject: {esc(subject)}</span></td>
<td valign="top" nowrap="nowrap"><a href="./ucp-login.html"><img src="{EXT}/phpbb/icon_quote.gif" alt="Reply with quote"></a></td></tr>
<tr><td colspan="2"><hr></td></tr>
<tr><td colspan="2"><span class="postbody">{post['text']}{sig}</span></td></tr></table></td>
</tr>
<tr><td class="row1" valign="middle"><span class="nav"><a href="#top" class="nav">Back to top</a></span></td>
<td class="row1"><a href="./memberlist-u{u + 1}.html"><img src="{EXT}/phpbb/icon_profile.gif" alt="View user's profile"></a></td></tr>
<tr><td class="spaceRow" colspan="2" height="1"></td></tr>"""


def forum_topic(s, m, t):
    f = t["forum"]
    pages = forum_pages_of(t)
    similar = [x for x in m["topics"] if x["forum"] is not f][t["id"] % 7::9][:3]
    sim = "".join(f'<tr><td class="row1"><a href="./{x["path"]}" class="topictitle">{esc(x["title"])}</a>'
                  f'</td><td class="row2"><span class="gensmall">in <a href="./{x["forum"]["path"]}">'
                  f'{esc(x["forum"]["name"])}</a></span></td></tr>' for x in similar)
    for n in range(1, pages + 1):
        p = forum_page_path(t, n)
        posts = t["posts"][(n - 1) * FORUM_PER_PAGE: n * FORUM_PER_PAGE]
        goto = ", ".join(f"<b>{i}</b>" if i == n else f'<a href="./{forum_page_path(t, i)}">{i}</a>'
                         for i in range(1, pages + 1))
        body = f"""<table width="100%" cellspacing="2" cellpadding="2" border="0">
<tr><td align="left" valign="bottom" colspan="2"><a class="maintitle" href="./{t['path']}">{esc(t['title'])}</a><br>
<span class="gensmall"><b>Goto page {goto}</b></span></td></tr></table>
<table width="100%" cellspacing="2" cellpadding="2" border="0"><tr><td><a href="./ucp-login.html"><img src="{EXT}/phpbb/reply.gif" alt="Post a reply"></a></td></tr></table>
<table class="forumline" width="100%" cellspacing="1" cellpadding="3" border="0">
<tr><th class="thLeft" width="150" height="26" nowrap="nowrap">Author</th><th class="thRight" nowrap="nowrap">Message</th></tr>
{chr(10).join(forum_post_html(t, x, n == 1 and i == 0) for i, x in enumerate(posts))}
</table>
<p class="gensmall">Page <b>{n}</b> of <b>{pages}</b> &middot; <a href="./{f['path']}">Return to {esc(f['name'])}</a></p>
<table class="forumline" width="100%" cellspacing="1" cellpadding="3"><tr><th colspan="2">Similar topics</th></tr>{sim}</table>"""
        s.add(p, forum_page(t["title"], body, forum_crumbs(f)))
        if n > 1:
            s.out(p)


def forum_noise(s, m):
    users = set(p["user"] for t in m["topics"] for p in t["posts"]) | {0, 3, 6, 9, 10}
    for u in sorted(users):
        p = f"memberlist-u{u + 1}.html"
        mine = [t for t in m["topics"] if t["posts"][0]["user"] == u][:5]
        started = "".join(f'<li><a href="./{t["path"]}">{esc(t["title"])}</a></li>' for t in mine)
        body = (f'<table class="forumline" width="100%"><tr><th>Viewing profile :: {FORUM_USERS[u]}</th></tr>'
                f'<tr><td class="row1"><span class="gen">Joined: {MONTHS[u % 12]} {2005 + u}<br>'
                f'Website: <a href="{EXT}/~{FORUM_USERS[u].lower()}">{EXT}/~{FORUM_USERS[u].lower()}</a><br>'
                f'<a href="./search.html">Find all posts by {FORUM_USERS[u]}</a></span><ul>{started}</ul></td></tr></table>')
        s.add(p, forum_page(f"Viewing profile :: {FORUM_USERS[u]}", body))
        s.out(p)
    for title, p in FORUM_NOISE:
        body = f'<table class="forumline" width="100%"><tr><th>{title}</th></tr><tr><td class="row1"><span class="gen">{paragraph(s.rng)}</span></td></tr></table>'
        if p == "memberlist.html":
            body = ('<table class="forumline" width="100%"><tr><th>Username</th><th>Posts</th></tr>' + "".join(
                f'<tr><td class="row1">{forum_user(u)}</td><td class="row2">{37 * (u + 3)}</td></tr>'
                for u in sorted(users)) + "</table>")
        elif p in ("search-unanswered.html", "search-active.html"):
            body += "<ul>" + "".join(f'<li><a href="./{t["path"]}">{esc(t["title"])}</a></li>'
                                     for t in m["topics"][3::7]) + "</ul>"
        s.add(p, forum_page(title, body))
        s.out(p)


def build_forum():
    s = Site("forum", "discussion forum (phpBB-like)",
             "phpBB2-style board. Index table with category rows (plain text) and forum rows "
             "-> forums (two with subforums) -> subforums -> topics. Noise: last-post links "
             "(#p fragments), subforum links on the index, announcement rows, user profiles, "
             "topic pagination (-startN pages), similar topics, search/memberlist pages.",
             seed=31337)
    m = forum_model(s.rng)
    forum_index(s, m)
    for f in m["forums"]:
        forum_forum(s, m, f)
    for t in m["topics"]:
        forum_topic(s, m, t)
    forum_noise(s, m)
    return s
