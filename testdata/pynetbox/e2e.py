#!/usr/bin/env python3
"""End-to-end test of the inventory REST API through the real pynetbox client.

Usage: e2e.py [BASE_URL]   (default: $INVENTORY_URL, else http://127.0.0.1:8000)

The server must have a superuser whose username/password are
$INVENTORY_USER/$INVENTORY_PASSWORD (default admin/admin). The script starts
without a token, provisions one with nb.create_token(), then drives regions,
sites, tenants, tags, prefixes and VLANs with .create() (single and list),
.all(), .filter(), .get(), .count(), .choices(), .save(), .delete(), bulk
update/delete, offset pagination over several pages and cursor pagination
(pagination="cursor", NetBox 4.6+), and the allocation endpoints
(available_prefixes, available_ips, available_vlans), circuits, and owners.

Every name carries a random suffix, so the script can also run repeatedly
against a long-lived server (`make run`). Each section runs even if an
earlier one failed, unless it needs objects that one did not create; a
failure prints the failing request and the section's last HTTP requests.

A virtualization section builds a cluster with three VMs, each with an
interface and a disk, and a VM's primary IPv4 on its interface.

A templates section renders the device's configuration through its role's
config template (render_config, JSON and text/plain) and the site list
through an export template (?export=).
A config contexts section merges a site-wide and a role-specific context
under the device's local context data, and leaves it out with exclude.
A cable paths section connects two devices through a patch panel by two
cables (connected_endpoints, trace(), paths(), connected-device), and a
power and a console cable, each deleted again.

Exit status: 0 all checks passed, 1 a check failed, 2 pynetbox is not
importable.
"""

import os
import re
import secrets
import sys
import traceback
from urllib.parse import parse_qs, urlsplit

try:
    import pynetbox
    from pynetbox.core.query import RequestError
except ImportError as exc:  # the Go test skips (locally) or fails (CI) on 2
    print("pynetbox is not importable: {}".format(exc), file=sys.stderr)
    sys.exit(2)

URL = (sys.argv[1] if len(sys.argv) > 1 else os.environ.get("INVENTORY_URL", "http://127.0.0.1:8000")).rstrip("/")
USER = os.environ.get("INVENTORY_USER", "admin")
PASSWORD = os.environ.get("INVENTORY_PASSWORD", "admin")
SFX = secrets.token_hex(3)  # unique per run
N_TENANTS = 60  # more than PAGINATE_COUNT (50) and than 3 pages of PAGE
PAGE = 20  # explicit page size: pynetbox sends limit=0 (= MAX_PAGE_SIZE) otherwise

# ---------------------------------------------------------------- harness

REQUESTS = []  # (method, url, status) of every HTTP request, in order


def log_response(resp, *args, **kwargs):
    REQUESTS.append((resp.request.method, resp.request.url, resp.status_code))


def new_api(**kwargs):
    nb = pynetbox.api(URL, **kwargs)
    nb.http_session.hooks["response"].append(log_response)
    return nb


class CheckFailed(AssertionError):
    pass


def check(cond, msg, *args):
    if not cond:
        raise CheckFailed(msg.format(*args) if args else msg)


def eq(got, want, what):
    check(got == want, "{}: got {!r}, want {!r}", what, got, want)


def gets_since(mark, path=None):
    """GET requests made since REQUESTS[mark], optionally only to path."""
    out = []
    for method, url, _ in REQUESTS[mark:]:
        u = urlsplit(url)
        if method == "GET" and (path is None or u.path == path):
            out.append({k: v[-1] for k, v in parse_qs(u.query, keep_blank_values=True).items()})
    return out


PASSED, FAILED = [], []


def section(name, fn, fatal=False, needs=()):
    missing = [n for n in needs if n not in S]
    if missing:
        FAILED.append(name)
        print("FAIL {}: not run: earlier sections did not create {}".format(name, ", ".join(missing)))
        return
    mark = len(REQUESTS)
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - report everything
        FAILED.append(name)
        print("FAIL {}: {}".format(name, fn.__doc__))
        print("  " + describe(exc))
        if not isinstance(exc, CheckFailed):
            for fr in traceback.extract_tb(exc.__traceback__):
                if fr.filename == __file__ and fr.name != "section":
                    print("  at {}:{} in {}: {}".format(os.path.basename(fr.filename), fr.lineno, fr.name, fr.line))
        print("  requests of this section (last 15):")
        for method, url, status in REQUESTS[mark:][-15:]:
            print("    {} {} -> {}".format(method, url, status))
        if fatal:
            summary()
    else:
        PASSED.append(name)
        print("ok   {}: {} ({} requests)".format(name, fn.__doc__, len(REQUESTS) - mark))


def describe(exc):
    if isinstance(exc, RequestError):
        r = exc.req
        body = r.request.body
        if isinstance(body, bytes):
            body = body.decode("utf-8", "replace")
        return "{} {} (request body {}) -> {} {}".format(
            r.request.method, r.request.url, body, r.status_code, r.text[:2000])
    return "{}: {}".format(type(exc).__name__, exc)


def summary():
    print()
    print("pynetbox {} against {}: {} passed, {} failed".format(
        pynetbox.__version__, URL, len(PASSED), len(FAILED)))
    if FAILED:
        print("failed: " + ", ".join(FAILED))
    sys.exit(1 if FAILED else 0)


def ids(records):
    return [r.id for r in records]


# ---------------------------------------------------------------- state

nb = new_api()  # no token: provisioning sets nb.token
S = {}  # objects shared between sections


# ---------------------------------------------------------------- sections

def provisioning():
    """nb.version (API-Version), create_token() and the token it sets"""
    # pynetbox reads API-Version from GET /api/ even when it is a 403.
    eq(nb.token, None, "token before create_token")
    eq(nb.version, "4.6", "nb.version (API-Version of GET /api/) without a token")

    bad = new_api()
    try:
        bad.create_token(USER, PASSWORD + "-wrong")
    except RequestError as exc:
        eq(exc.req.status_code, 403, "create_token with a wrong password: status")
        eq(exc.req.json(), {"detail": "Invalid username/password"}, "create_token with a wrong password: body")
    else:
        check(False, "create_token with a wrong password succeeded")
    eq(bad.token, None, "token after a failed create_token")

    tok = nb.create_token(USER, PASSWORD)
    S["token"] = tok
    check(nb.token, "nb.token not set by create_token")
    check(isinstance(tok.key, str) and tok.key, "token key missing: {!r}", tok.key)
    check(isinstance(tok.token, str) and tok.token, "token plaintext missing: {!r}", tok.token)
    # pynetbox builds the v2 credential nbt_<key>.<token> itself, but only
    # when the response says "version": 2 (a plain integer, as in NetBox).
    version = dict(tok).get("version")
    check(nb.token == "nbt_{}.{}".format(tok.key, tok.token),
          "nb.token is {!r}, want 'nbt_<key>.<token>': pynetbox builds it only when the provisioning "
          "response has \"version\": 2 (integer); the response has \"version\": {!r}", nb.token, version)
    eq(version, 2, "provisioned token version")
    eq(tok.write_enabled, True, "provisioned token write_enabled")
    eq(tok.enabled, True, "provisioned token enabled")
    eq(tok.user.username, USER, "provisioned token user")
    check(isinstance(tok.id, int), "token id: {!r}", tok.id)
    eq(sorted(dict(tok)), sorted([
        "id", "url", "display_url", "display", "version", "user", "key", "created", "expires", "last_used",
        "enabled", "write_enabled", "description", "allowed_ips", "token"]), "provisioning response fields")

    eq(nb.version, "4.6", "nb.version with the token")
    # The provisioned token authenticates: it can read itself back.
    again = nb.users.tokens.get(tok.id)
    check(again is not None, "token {} not readable with itself", tok.id)
    eq(again.key, tok.key, "token key read back")
    check(not getattr(again, "token", None), "plaintext token returned on read: {!r}", getattr(again, "token", None))


def status():
    """nb.status()"""
    st = nb.status()
    check(isinstance(st, dict), "status is not a dict: {!r}", st)
    v = st.get("netbox-version")
    check(isinstance(v, str) and re.fullmatch(r"4\.6\.\d+", v), "netbox-version {!r} is not 4.6.X", v)
    for key in ("hostname", "installed_apps", "plugins", "rq-workers-running"):
        check(key in st, "status has no {!r}: {}", key, sorted(st))


def tags():
    """extras.tags.create()"""
    red = nb.extras.tags.create(name="red-" + SFX, slug="red-" + SFX, color="ff0000")
    blue = nb.extras.tags.create({"name": "blue-" + SFX, "slug": "blue-" + SFX})
    eq(red.color, "ff0000", "tag color")
    S["red"], S["blue"] = red, blue


def regions():
    """create() single and list, a tree (children of one parent), get(slug=), filter(), count()"""
    tops = nb.dcim.regions.create([
        {"name": "Europe " + SFX, "slug": "europe-" + SFX},
        {"name": "Asia " + SFX, "slug": "asia-" + SFX, "description": "top"},
    ])
    check(isinstance(tops, list) and len(tops) == 2, "bulk create returned {!r}", tops)
    europe, asia = tops
    S["europe"], S["asia"] = europe, asia
    eq((europe.parent, asia.description), (None, "top"), "top-level regions")
    west = nb.dcim.regions.create(name="West " + SFX, slug="west-" + SFX, parent=europe.id)
    S["west"] = west
    eq(west.parent.id, europe.id, "parent of West")
    eq(nb.dcim.regions.get(europe.id).parent, None, "parent of Europe after creating its child West")
    eq(nb.dcim.regions.get(slug=west.slug).id, west.id, "regions.get(slug=)")

    # More children of the same parent (NetBox: unique name/slug among siblings only).
    kids = nb.dcim.regions.create([
        {"name": "North " + SFX, "slug": "north-" + SFX, "parent": europe.id},
        {"name": "South " + SFX, "slug": "south-" + SFX, "parent": {"slug": europe.slug}},
    ])
    S["north"], S["south"] = kids
    eq([k.parent.id for k in kids], [europe.id] * 2, "parents of North and South")
    eq(sorted(ids(nb.dcim.regions.filter(parent_id=europe.id))), sorted([west.id] + ids(kids)),
       "regions.filter(parent_id=Europe)")
    eq(nb.dcim.regions.count(name__ic=SFX), 5, "regions.count(name__ic=)")
    eq(nb.dcim.regions.get(europe.id)._depth, 0, "_depth of Europe")
    eq(nb.dcim.regions.get(kids[1].id)._depth, 1, "_depth of South")


def tenants():
    """bulk create() of 60, all()/filter() over several pages, count(), len(), tag filters, get()"""
    red, blue = S["red"], S["blue"]
    payload = []
    for i in range(N_TENANTS):
        t = {"name": "Tenant {:03d} {}".format(i, SFX), "slug": "tenant-{:03d}-{}".format(i, SFX)}
        if i % 3 == 0:
            t["tags"] = [red.id]  # tags by id
        elif i % 3 == 1:
            t["tags"] = [{"slug": blue.slug}]  # tags by attributes
        payload.append(t)
    created = nb.tenancy.tenants.create(payload)
    check(isinstance(created, list), "bulk create returned {!r}", type(created))
    eq(len(created), N_TENANTS, "bulk-created tenants")
    eq([t.name for t in created], [p["name"] for p in payload], "bulk create order")
    eq(sorted(t.slug for t in created[0].tags), [red.slug], "tags of tenant 0")
    eq(sorted(t.slug for t in created[1].tags), [blue.slug], "tags of tenant 1")
    S["tenants"] = created
    S["tenant"] = nb.tenancy.tenants.create(name="Acme " + SFX, slug="acme-" + SFX)

    # Offset pagination through next links: 61 matching tenants, pages of 20.
    mark = len(REQUESTS)
    listed = list(nb.tenancy.tenants.filter(name__ic=SFX, limit=PAGE))
    eq(len(listed), N_TENANTS + 1, "filter(name__ic=, limit=20) results")
    eq(len(set(ids(listed))), N_TENANTS + 1, "distinct ids over pages")
    pages = gets_since(mark, "/api/tenancy/tenants/")
    eq(len(pages), 4, "GET requests for 61 objects in pages of 20 ({})".format(pages))
    eq([p.get("offset") for p in pages], [None, "20", "40", "60"], "offsets requested")
    check(all(p.get("limit") == str(PAGE) for p in pages), "limit lost while paging: {}", pages)
    check(all(p.get("name__ic") == SFX for p in pages), "filter lost while paging: {}", pages)

    # .all() over everything: more than one page, each object once.
    everything = list(nb.tenancy.tenants.all(limit=PAGE))
    check(set(ids(listed)) <= set(ids(everything)), "all(limit=20) misses tenants of this run")
    eq(len(everything), len(set(ids(everything))), "all(limit=20) has duplicates")
    total = nb.tenancy.tenants.count()
    eq(len(everything), total, "all(limit=20) length vs count()")
    # pynetbox's default .all() asks limit=0 (one page up to MAX_PAGE_SIZE).
    eq(sorted(ids(nb.tenancy.tenants.all())), sorted(ids(everything)), "all() vs all(limit=20)")
    rs = nb.tenancy.tenants.filter(name__ic=SFX)
    eq(len(rs), N_TENANTS + 1, "len(RecordSet)")

    # Filters.
    eq(sorted(ids(nb.tenancy.tenants.filter(tag=red.slug))),
       sorted(t.id for i, t in enumerate(created) if i % 3 == 0), "filter(tag=red)")
    eq(sorted(ids(nb.tenancy.tenants.filter(name__ic=SFX.upper(), tag=blue.slug))),
       sorted(t.id for i, t in enumerate(created) if i % 3 == 1), "filter(name__ic=UPPER, tag=blue)")
    eq(nb.tenancy.tenants.count(tag=[red.slug, blue.slug]), 0, "count(tag=[red, blue]) (AND: none has both)")
    eq(nb.tenancy.tenants.count(tag__any=[red.slug, blue.slug]), 40, "count(tag__any=[red, blue]) (OR)")
    eq(nb.tenancy.tenants.count(tag__n=red.slug, name__ic=SFX), 41, "count(tag__n=red)")
    eq(nb.tenancy.tenants.count(name__ic=SFX), N_TENANTS + 1, "count(name__ic=)")
    eq(nb.tenancy.tenants.count("Tenant 00", slug__ic=SFX), 10, "count(q) (free-text search)")
    eq(list(nb.tenancy.tenants.filter(slug="no-such-" + SFX)), [], "filter with no match")

    # get by id / by attribute / missing.
    t5 = created[5]
    eq(nb.tenancy.tenants.get(t5.id).slug, t5.slug, "get(id)")
    eq(nb.tenancy.tenants.get(slug=t5.slug).id, t5.id, "get(slug=)")
    eq(nb.tenancy.tenants.get(999999999), None, "get(missing id)")
    eq(nb.tenancy.tenants.get(slug="no-such-" + SFX), None, "get(slug=missing)")
    try:
        nb.tenancy.tenants.get(name__ic=SFX)
    except ValueError:
        pass
    else:
        check(False, "get() matching many objects did not raise ValueError")


def cursor():
    """pagination='cursor': start=0 then the server's next links, count via ?limit=1&brief=1"""
    nbc = new_api(token=nb.token, pagination="cursor")
    want = sorted(t.id for t in S["tenants"]) + [S["tenant"].id]

    mark = len(REQUESTS)
    got = [t for t in nbc.tenancy.tenants.filter(name__ic=SFX, limit=PAGE)]  # no len(): see below
    eq(ids(got), sorted(want), "cursor filter(limit=20): ids in pk order")
    pages = gets_since(mark, "/api/tenancy/tenants/")
    check(pages and pages[0].get("start") == "0", "first cursor request has no start=0: {}", pages)
    check(all("start" in p and "offset" not in p for p in pages), "cursor requests: {}", pages)
    check(all(p.get("name__ic") == SFX and p.get("limit") == str(PAGE) for p in pages), "filter/limit lost: {}", pages)
    # 61 objects in pages of 20 -> 4 pages; start advances beyond the last id.
    eq(len(pages), 4, "cursor GETs for 61 objects ({})".format(pages))
    starts = [int(p["start"]) for p in pages]
    check(starts == sorted(starts) and len(set(starts)) == len(starts), "starts not increasing: {}", starts)
    eq(starts[1], got[PAGE - 1].id + 1, "second start (last id of page 1 + 1)")

    # Exactly 60 objects in pages of 20: the third page is full, so next is
    # given and yields an empty fourth page.
    mark = len(REQUESTS)
    got = [t for t in nbc.tenancy.tenants.filter(name__ic="Tenant", slug__ic=SFX, limit=PAGE)]
    eq(len(got), N_TENANTS, "cursor over 60 objects")
    eq(len(gets_since(mark, "/api/tenancy/tenants/")), 4, "cursor GETs for 60 objects")

    # list() asks len() first; in cursor mode pynetbox fetches the count
    # with an offset-style ?limit=1&brief=1 (cursor pages have count null).
    mark = len(REQUESTS)
    got = list(nbc.tenancy.tenants.filter(name__ic=SFX, limit=PAGE))
    eq(ids(got), sorted(want), "list() of a cursor RecordSet")
    counts = [p for p in gets_since(mark, "/api/tenancy/tenants/") if "start" not in p]
    eq(counts, [{"name__ic": SFX, "limit": "1", "brief": "1"}], "count request of list()")

    # Default .all() in cursor mode (limit=0 -> one page), and len() which
    # pynetbox fetches with ?limit=1&brief=1 since cursor pages have count null.
    rs = nbc.tenancy.tenants.all()
    everything = list(rs)
    check(set(want) <= set(ids(everything)), "cursor all() misses tenants of this run")
    eq(ids(everything), sorted(ids(everything)), "cursor all() order")
    eq(len(rs), len(everything), "len() of a cursor RecordSet")
    eq(nbc.tenancy.tenants.count(name__ic=SFX), N_TENANTS + 1, "count() on a cursor-mode api")


def sites():
    """create() with related objects and tags, get(), filter(), save(), update(), choices()"""
    red = S["red"]
    site = nb.dcim.sites.create(
        name="DC1 " + SFX, slug="dc1-" + SFX, status="planned", region=S["west"].id,
        tenant=S["tenant"].id, tags=[red.id], description="first",
    )
    eq(site.status.value, "planned", "site status")
    eq(site.region.id, S["west"].id, "site region")
    eq(site.tenant.slug, S["tenant"].slug, "site tenant")
    eq([t.slug for t in site.tags], [red.slug], "site tags")
    more = nb.dcim.sites.create([
        {"name": "DC{} {}".format(i, SFX), "slug": "dc{}-{}".format(i, SFX), "region": {"slug": S["asia"].slug}}
        for i in (2, 3)
    ])
    eq([s.region.id for s in more], [S["asia"].id] * 2, "regions set by slug")
    S["site"], S["sites"] = site, [site] + more

    got = nb.dcim.sites.get(site.id)
    eq(got.name, site.name, "sites.get(id)")
    eq(got.region.name, S["west"].name, "nested region name")
    eq(nb.dcim.sites.get(slug=site.slug).id, site.id, "sites.get(slug=)")
    eq(ids(nb.dcim.sites.filter(region_id=S["europe"].id)), [site.id], "sites.filter(region_id=Europe) (descendants)")
    eq(ids(nb.dcim.sites.filter(tag=red.slug, name__ic=SFX)), [site.id], "sites.filter(tag=)")
    eq(nb.dcim.sites.count(region=S["asia"].slug), 2, "sites.count(region=slug)")

    # save(): only the changed fields are PATCHed.
    got.description = "changed by pynetbox"
    got.status = "active"
    got.region = S["asia"].id
    got.tags = [{"slug": S["blue"].slug}]
    eq(sorted(got.updates()), ["description", "region", "status", "tags"], "pending updates")
    eq(got.save(), True, "site.save()")
    again = nb.dcim.sites.get(site.id)
    eq(again.description, "changed by pynetbox", "description after save")
    eq(again.status.value, "active", "status after save")
    eq(again.region.id, S["asia"].id, "region after save")
    eq([t.slug for t in again.tags], [S["blue"].slug], "tags after save")
    eq(again.save(), False, "save() without changes")  # no request at all
    again.update({"description": "via update()"})
    eq(nb.dcim.sites.get(site.id).description, "via update()", "description after Record.update()")

    choices = nb.dcim.sites.choices()
    check("status" in choices, "sites.choices() has no status: {}", sorted(choices))
    values = [c["value"] for c in choices["status"]]
    for v in ("planned", "staging", "active", "decommissioning", "retired"):
        check(v in values, "site status choice {!r} missing: {}", v, values)
    check(all("display_name" in c for c in choices["status"]), "status choices lack display_name: {}", choices["status"])


def prefixes():
    """create(), filter(within=), get(prefix=), children, save(), delete()"""
    site, tenant = S["site"], S["tenant"]
    octet = secrets.randbelow(200) + 20
    base = "10.{}.".format(octet)
    top = nb.ipam.prefixes.create(prefix=base + "0.0/16", status="container", tenant=tenant.id,
                                  scope_type="dcim.site", scope_id=site.id)
    eq(top.family.value, 4, "prefix family")
    eq(top.status.value, "container", "prefix status")
    eq(top.scope.id, site.id, "prefix scope")
    kids = nb.ipam.prefixes.create([
        {"prefix": base + "{}.0/24".format(i), "tenant": tenant.id, "description": SFX} for i in range(3)
    ])
    eq(len(kids), 3, "bulk-created prefixes")
    S["prefixes"] = [top] + kids

    inside = nb.ipam.prefixes.filter(within=base + "0.0/16", tenant_id=tenant.id)
    eq(sorted(ids(inside)), sorted(ids(kids)), "prefixes.filter(within=)")
    eq(nb.ipam.prefixes.get(prefix=base + "1.0/24", tenant_id=tenant.id).id, kids[1].id, "prefixes.get(prefix=)")
    eq(nb.ipam.prefixes.count(tenant_id=tenant.id, mask_length=24), 3, "prefixes.count(mask_length=24)")
    eq(nb.ipam.prefixes.get(top.id).children, 3, "children of the /16")

    p = nb.ipam.prefixes.get(kids[2].id)
    p.status = "reserved"
    p.is_pool = True
    eq(p.save(), True, "prefix.save()")
    p = nb.ipam.prefixes.get(kids[2].id)
    eq((p.status.value, p.is_pool), ("reserved", True), "prefix after save")
    check("status" in nb.ipam.prefixes.choices(), "prefixes.choices() has no status")

    eq(kids[0].delete(), True, "prefix.delete()")
    eq(nb.ipam.prefixes.get(kids[0].id), None, "deleted prefix still there")
    S["prefixes"].remove(kids[0])


def vlans():
    """create(), filter(), count(vid__gte=), 400 on a bad vid, save(), delete()"""
    site, tenant = S["site"], S["tenant"]
    v = nb.ipam.vlans.create(vid=100, name="v100-" + SFX, site=site.id, tenant=tenant.id)
    more = nb.ipam.vlans.create([{"vid": 200 + i, "name": "v{}-{}".format(200 + i, SFX), "site": site.id} for i in range(3)])
    S["vlans"] = [v] + more
    eq(v.site.id, site.id, "vlan site")
    eq(v.status.value, "active", "vlan default status")
    eq(ids(nb.ipam.vlans.filter(vid=100, site_id=site.id)), [v.id], "vlans.filter(vid=, site_id=)")
    eq(nb.ipam.vlans.count(site_id=site.id, vid__gte=200), 3, "vlans.count(vid__gte=)")
    eq(nb.ipam.vlans.get(name="v201-" + SFX).vid, 201, "vlans.get(name=)")
    bad = None
    try:
        bad = nb.ipam.vlans.create(vid=5000, name="bad-" + SFX)
    except RequestError as exc:
        eq(exc.req.status_code, 400, "vid 5000: status")
        check("vid" in exc.error, "vid 5000: error does not name vid: {}", exc.error)
    finally:
        if bad is not None:
            bad.delete()
    check(bad is None, "vlan with vid 5000 was created")

    v.name = "renamed-" + SFX
    v.status = "deprecated"
    eq(v.save(), True, "vlan.save()")
    got = nb.ipam.vlans.get(v.id)
    eq((got.name, got.status.value), ("renamed-" + SFX, "deprecated"), "vlan after save")
    eq(got.delete(), True, "vlan.delete()")
    eq(nb.ipam.vlans.get(v.id), None, "deleted vlan still there")
    S["vlans"].remove(v)


def bulk():
    """RecordSet.update(), Endpoint.update(), Endpoint.delete(), RecordSet.delete()"""
    created = S["tenants"]
    # RecordSet.update(): bulk PATCH of the changed records only.
    upd = nb.tenancy.tenants.filter(tag=S["red"].slug).update(description="red " + SFX)
    eq(sorted(ids(upd or [])), sorted(t.id for i, t in enumerate(created) if i % 3 == 0), "RecordSet.update() result")
    eq(nb.tenancy.tenants.filter(tag=S["red"].slug).update(description="red " + SFX), None,
       "RecordSet.update() without changes")
    eq(nb.tenancy.tenants.count(description="red " + SFX), 20, "tenants with the bulk-updated description")
    # Endpoint.update() with dicts.
    upd = nb.tenancy.tenants.update([{"id": t.id, "comments": "bulk " + SFX} for t in created[:5]])
    eq(sorted(ids(upd)), sorted(ids(created[:5])), "Endpoint.update() ids")
    eq(nb.tenancy.tenants.count("bulk " + SFX), 5, "tenants with bulk comments (q=)")
    # Endpoint.delete() with Records and with ids; RecordSet.delete().
    eq(nb.tenancy.tenants.delete(created[:10]), True, "Endpoint.delete(records)")
    eq(nb.tenancy.tenants.delete([t.id for t in created[10:20]]), True, "Endpoint.delete(ids)")
    eq(nb.tenancy.tenants.filter(tag=S["blue"].slug, name__ic=SFX).delete(), True, "RecordSet.delete()")
    left = ids(nb.tenancy.tenants.filter(name__ic=SFX))
    want = [t.id for i, t in enumerate(created) if i >= 20 and i % 3 != 1] + [S["tenant"].id]
    eq(sorted(left), sorted(want), "tenants left after bulk deletes")


def devices():
    """the issue's walk-through: a 48-port device type, a device placed in a rack gets its
    interfaces and power ports, a clashing position is refused, filters, the rack elevation"""
    site = S["site"]
    man = nb.dcim.manufacturers.create(name="Vendor " + SFX, slug="vendor-" + SFX)
    S["manufacturer"] = man
    dt = nb.dcim.device_types.create(manufacturer=man.id, model="Switch48 " + SFX, slug="switch48-" + SFX, u_height=1)
    S["device_type"] = dt
    made = nb.dcim.interface_templates.create([
        {"device_type": dt.id, "name": "ge-0/0/{}".format(i), "type": "1000base-t"} for i in range(48)
    ])
    eq(len(made), 48, "bulk-created interface templates")
    nb.dcim.power_port_templates.create([
        {"device_type": dt.id, "name": "PSU{}".format(i), "maximum_draw": 150} for i in (1, 2)
    ])
    eq(nb.dcim.device_types.get(dt.id).interface_template_count, 48, "interface_template_count")
    role = nb.dcim.device_roles.create(name="Leaf " + SFX, slug="leaf-" + SFX, color="2196f3")
    S["role"] = role
    rack = nb.dcim.racks.create(name="R1 " + SFX, site=site.id, u_height=42, status="active")
    S["rack"] = rack

    mark = len(REQUESTS)
    dev = nb.dcim.devices.create(name="leaf1-" + SFX, device_type=dt.id, role=role.id, site=site.id,
                                 rack=rack.id, position=10, face="front")
    S["device"] = dev
    eq(dev.position, 10, "device position")
    eq(dev.rack.id, rack.id, "device rack (nested)")
    eq(dev.device_type.manufacturer.id, man.id, "device type's manufacturer (nested)")
    check(len(REQUESTS) - mark == 1, "creating a device took {} requests", len(REQUESTS) - mark)
    eq(dev.interface_count, 48, "interface_count of the new device")
    eq(dev.power_port_count, 2, "power_port_count of the new device")
    eq(nb.dcim.interfaces.count(device_id=dev.id), 48, "interfaces.count(device_id=)")
    eq(nb.dcim.power_ports.count(device_id=dev.id), 2, "power_ports.count(device_id=)")
    first = list(nb.dcim.interfaces.filter(device_id=dev.id, name__isw="ge-0/0/1"))
    eq(sorted(i.name for i in first), sorted(["ge-0/0/1"] + ["ge-0/0/1{}".format(i) for i in range(10)]),
       "interfaces.filter(device_id=, name__isw=)")
    eq(first[0].device.id, dev.id, "interface device (nested)")
    S["interface"] = first[0]

    try:
        nb.dcim.devices.create(name="leaf2-" + SFX, device_type=dt.id, role=role.id, site=site.id,
                               rack=rack.id, position=10, face="front")
        check(False, "a second device at position 10 of the same face was created")
    except pynetbox.RequestError as e:
        eq(e.req.status_code, 400, "status of a position clash")
        check("position" in (e.error or ""), "position clash error does not name position: {}", e.error)
    eq(nb.dcim.devices.count(rack_id=rack.id), 1, "devices in the rack after the refused clash")

    units = nb.dcim.racks.get(rack.id).elevation.list()
    units = list(units)
    # NetBox 4.6 lists half units: 84 for 42U, from 42.5 down to 1.
    eq(len(units), 84, "rack elevation units")
    mine = [u.id for u in units if u.device and u.device.id == dev.id]
    eq(sorted(mine), [10, 10.5], "units of the device in the elevation")
    eq(units[0].id, 42.5, "elevation starts at the top unit")


def allocation():
    """the issue's allocation walk-through: the next free /31 of a /24 container, the next free
    address in it on the device's interface as its primary IPv4; AllocationError (409) when full;
    Idempotency-Key; 100 parallel allocations give 100 distinct addresses; available VLANs"""
    from concurrent.futures import ThreadPoolExecutor

    dev, iface = S["device"], S["interface"]
    base = "172.{}.{}.".format(16 + secrets.randbelow(16), secrets.randbelow(256))
    made = []  # (endpoint, record) to delete, last first
    try:
        container = nb.ipam.prefixes.create(prefix=base + "0/24", status="container", description=SFX)
        made.append(container)
        made.append(nb.ipam.prefixes.create(prefix=base + "0/31", description=SFX))
        free = [p.prefix for p in container.available_prefixes.list()]
        eq(free[:2], [base + "2/31", base + "4/30"], "available_prefixes.list()")
        p2p = container.available_prefixes.create({"prefix_length": 31, "description": SFX})
        made.append(p2p)
        eq(p2p.prefix, base + "2/31", "the next free /31")
        eq([a.address for a in p2p.available_ips.list()], [base + "2/31", base + "3/31"], "available_ips.list() of the /31")
        ip = p2p.available_ips.create({"assigned_object_type": "dcim.interface", "assigned_object_id": iface.id,
                                       "description": SFX})
        made.append(ip)
        eq((ip.address, ip.assigned_object.id), (base + "2/31", iface.id), "the next free address, on the interface")
        d = nb.dcim.devices.get(dev.id)
        d.primary_ip4 = ip.id
        eq(d.save(), True, "device.save() with primary_ip4")
        eq(nb.dcim.devices.get(dev.id).primary_ip4.address, base + "2/31", "the device's primary IPv4")
        try:
            p2p.available_ips.create([{}, {}])
            check(False, "two addresses were allocated where one was free")
        except pynetbox.AllocationError as exc:
            eq(exc.req.status_code, 409, "status when the /31 is full")

        # Idempotency-Key: a retried POST answers the first allocation again.
        nb.http_session.headers["Idempotency-Key"] = "alloc-" + SFX
        try:
            first = container.available_prefixes.create({"prefix_length": 30, "description": SFX})
            again = container.available_prefixes.create({"prefix_length": 30, "description": SFX})
        finally:
            del nb.http_session.headers["Idempotency-Key"]
        made.append(first)
        eq((again.id, again.prefix), (first.id, first.prefix), "a retry with the same Idempotency-Key")

        # 100 allocations at once, from as many clients.
        pool = nb.ipam.prefixes.create(prefix=base.rsplit(".", 2)[0] + ".{}.0/24".format((int(base.split(".")[2]) + 1) % 256),
                                       description=SFX)
        made.append(pool)
        token = nb.token

        def allocate(i):
            api = pynetbox.api(URL, token=token)
            return api.ipam.prefixes.get(pool.id).available_ips.create({"description": "{} {}".format(SFX, i)})

        with ThreadPoolExecutor(max_workers=20) as ex:
            got = list(ex.map(allocate, range(100)))
        made.extend(got)
        eq(len({a.address for a in got}), 100, "distinct addresses of 100 parallel allocations")

        group = nb.ipam.vlan_groups.create(name="alloc " + SFX, slug="alloc-" + SFX, vid_ranges=[[100, 102]])
        made.append(group)
        eq([v.vid for v in group.available_vlans.list()], [100, 101, 102], "available_vlans.list()")
        vlans = group.available_vlans.create([{"name": "a-" + SFX}, {"name": "b-" + SFX}])
        made.extend(vlans)
        eq([v.vid for v in vlans], [100, 101], "VLANs from available_vlans.create()")
    finally:
        d = nb.dcim.devices.get(dev.id)
        if d.primary_ip4:
            d.primary_ip4 = None
            d.save()
        for obj in reversed(made):
            obj.delete()


def circuits():
    """a provider, a circuit type, a circuit with an A termination at a site and a Z termination at a provider network"""
    site = S["site"]
    made = []
    try:
        prov = nb.circuits.providers.create(name="Carrier " + SFX, slug="carrier-" + SFX)
        made.append(prov)
        ctype = nb.circuits.circuit_types.create(name="Transit " + SFX, slug="transit-" + SFX, color="aa1409")
        made.append(ctype)
        net = nb.circuits.provider_networks.create(provider=prov.id, name="MPLS " + SFX)
        made.append(net)
        circuit = nb.circuits.circuits.create(cid="CID-" + SFX, provider={"slug": prov.slug}, type=ctype.id,
                                              commit_rate=10000, install_date="2024-01-15")
        made.append(circuit)
        eq(circuit.provider.id, prov.id, "circuit provider (given by slug)")
        eq(circuit.status.value, "active", "circuit status default")
        eq(circuit.termination_a, None, "termination_a before any termination")
        a = nb.circuits.circuit_terminations.create(circuit=circuit.id, term_side="A", termination_type="dcim.site",
                                                     termination_id=site.id, port_speed=1000000, xconnect_id="XC-1")
        z = nb.circuits.circuit_terminations.create(circuit=circuit.id, term_side="Z",
                                                     termination_type="circuits.providernetwork", termination_id=net.id)
        eq(a.display, "CID-{}: Termination A".format(SFX), "termination display")
        eq(a.termination.id, site.id, "A side's termination")
        got = nb.circuits.circuits.get(circuit.id)
        eq(got.termination_a.id, a.id, "circuit termination_a")
        eq(got.termination_z.id, z.id, "circuit termination_z")
        eq(got.termination_z.termination.id, net.id, "termination_z's provider network")
        eq(got.termination_a.port_speed, 1000000, "termination_a port_speed")
        eq(ids(nb.circuits.circuits.filter(site_id=site.id)), [circuit.id], "circuits.filter(site_id=)")
        eq(ids(nb.circuits.circuit_terminations.filter(circuit_id=circuit.id)), [a.id, z.id], "terminations of the circuit")
        eq(nb.dcim.sites.get(site.id).circuit_count, 1, "site circuit_count")
        eq(nb.circuits.providers.get(prov.id).circuit_count, 1, "provider circuit_count")
        for bad, field in (({"term_side": "C", "termination_type": "dcim.site", "termination_id": site.id}, "term_side"),
                           ({"term_side": "A", "termination_type": "dcim.site", "termination_id": site.id}, "__all__"),
                           ({"term_side": "Z", "termination_type": "dcim.device", "termination_id": 1}, "termination_type")):
            try:
                made.append(nb.circuits.circuit_terminations.create(circuit=circuit.id, **bad))
            except RequestError as exc:
                eq(exc.req.status_code, 400, "bad termination {}: status".format(bad))
                check(field in exc.error, "bad termination {}: error does not name {}: {}", bad, field, exc.error)
            else:
                check(False, "termination {} was created", bad)
        eq(nb.circuits.circuit_terminations.count(circuit_id=circuit.id), 2, "terminations after the refused ones")
        try:
            prov.delete()
        except RequestError as exc:
            eq(exc.req.status_code, 409, "deleting a provider that circuits use: status")
        else:
            check(False, "a provider with circuits was deleted")
            made.remove(prov)
    finally:
        for obj in reversed(made):
            obj.delete()
    eq(nb.circuits.circuit_terminations.get(a.id), None, "a termination left after its circuit's delete")


def contacts():
    """a contact in a group, assigned to a site with a role, found with the site's contact filters"""
    site = S["site"]
    made = []
    try:
        top = nb.tenancy.contact_groups.create(name="Ops " + SFX, slug="ops-" + SFX)
        made.append(top)
        noc = nb.tenancy.contact_groups.create(name="NOC " + SFX, slug="noc-" + SFX, parent=top.id)
        made.append(noc)
        contact = nb.tenancy.contacts.create(name="Jane " + SFX, email="jane@example.com", groups=[noc.id])
        made.append(contact)
        role = nb.tenancy.contact_roles.create(name="Admin " + SFX, slug="admin-" + SFX)
        made.append(role)
        asg = nb.tenancy.contact_assignments.create(object_type="dcim.site", object_id=site.id, contact=contact.id,
                                                    role={"slug": role.slug}, priority="primary")
        made.append(asg)
        eq(asg.object.id, site.id, "assignment's object")
        eq(asg.role.id, role.id, "assignment's role (given by slug)")
        eq(asg.display, "Jane {} (Primary) -> {}".format(SFX, site.display), "assignment display")
        eq([g.id for g in nb.tenancy.contacts.get(contact.id).groups], [noc.id], "contact's groups")
        eq(nb.tenancy.contact_groups.get(top.id).contact_count, 1, "top group's contact_count (from its subgroup)")
        eq(ids(nb.dcim.sites.filter(contact=contact.id)), [site.id], "sites.filter(contact=)")
        eq(ids(nb.dcim.sites.filter(contact_role=role.id)), [site.id], "sites.filter(contact_role=)")
        eq(ids(nb.dcim.sites.filter(contact_group=top.id)), [site.id], "sites.filter(contact_group=) with a subgroup")
        eq(ids(nb.tenancy.contact_assignments.filter(object_type="dcim.site", object_id=site.id)), [asg.id],
           "assignments of the site")
        try:
            made.append(nb.tenancy.contact_assignments.create(object_type="dcim.interface", object_id=1,
                                                              contact=contact.id, role=role.id))
        except RequestError as exc:
            eq(exc.req.status_code, 400, "assignment to an interface: status")
            # NetBox's ContactAssignment.clean(): a non-field error.
            check("Contacts cannot be assigned to this object type (DCIM | interface)." in exc.error,
                  "assignment to an interface: error {}", exc.error)
        else:
            check(False, "a contact was assigned to an interface")
        try:
            contact.delete()
        except RequestError as exc:
            eq(exc.req.status_code, 409, "deleting an assigned contact: status")
        else:
            check(False, "an assigned contact was deleted")
            made.remove(contact)
        # A site deleted takes its contact assignments with it.
        other = nb.dcim.sites.create(name="Contacts " + SFX, slug="contacts-" + SFX)
        gone = nb.tenancy.contact_assignments.create(object_type="dcim.site", object_id=other.id, contact=contact.id,
                                                     role=role.id)
        eq(other.delete(), True, "delete a site with a contact")
        eq(nb.tenancy.contact_assignments.get(gone.id), None, "an assignment left after its site's delete")
    finally:
        for obj in reversed(made):
            obj.delete()
def virtualization():
    """a cluster with 3 VMs, each with an interface and a disk; the VM's disk the sum of its disks; a primary IPv4 on a VM interface"""
    site = S["site"]
    made = []
    vms = []
    try:
        ctype = nb.virtualization.cluster_types.create(name="KVM " + SFX, slug="kvm-" + SFX)
        made.append(ctype)
        cluster = nb.virtualization.clusters.create(name="pve-" + SFX, type=ctype.id, scope_type="dcim.site",
                                                    scope_id=site.id)
        made.append(cluster)
        eq(cluster.scope.id, site.id, "cluster scope")
        other = nb.dcim.sites.create(name="Elsewhere " + SFX, slug="elsewhere-" + SFX)
        made.append(other)
        for i in range(3):
            vm = nb.virtualization.virtual_machines.create(name="vm{}-{}".format(i, SFX), cluster=cluster.id,
                                                           vcpus=2, memory=2048, status="active")
            vms.append(vm)
            eq(vm.site.id, site.id, "VM site taken from its cluster")
            nb.virtualization.interfaces.create(virtual_machine=vm.id, name="eth0")
            nb.virtualization.virtual_disks.create(virtual_machine=vm.id, name="sda", size=10 * (i + 1))
        nb.virtualization.virtual_disks.create(virtual_machine=vms[0].id, name="sdb", size=100)
        for i, vm in enumerate(vms):
            got = nb.virtualization.virtual_machines.get(vm.id)
            want = sum(d.size for d in nb.virtualization.virtual_disks.filter(virtual_machine_id=vm.id))
            eq(got.disk, want, "VM {} disk (the sum of its disks)".format(i))
            eq(got.interface_count, 1, "VM {} interface_count".format(i))
        eq(nb.virtualization.virtual_machines.get(vms[0].id).disk, 110, "first VM's disk")
        got = nb.virtualization.clusters.get(cluster.id)
        eq(got.virtualmachine_count, 3, "cluster virtualmachine_count")
        eq(got.allocated_disk, 110 + 20 + 30, "cluster allocated_disk")
        eq(nb.virtualization.virtual_machines.count(cluster_id=cluster.id), 3, "virtual_machines.count(cluster_id=)")
        iface = nb.virtualization.interfaces.get(virtual_machine_id=vms[0].id, name="eth0")
        ip = nb.ipam.ip_addresses.create(address="198.51.100.7/24", assigned_object_type="virtualization.vminterface",
                                         assigned_object_id=iface.id)  # goes with its VM's interface
        eq(ip.assigned_object.id, iface.id, "IP address assigned to the VM interface")
        vm = nb.virtualization.virtual_machines.get(vms[0].id)
        vm.primary_ip4 = ip.id
        vm.save()
        vm = nb.virtualization.virtual_machines.get(vms[0].id)
        eq(vm.primary_ip4.id, ip.id, "VM primary_ip4")
        eq(vm.primary_ip.id, ip.id, "VM primary_ip")
        eq(nb.virtualization.interfaces.get(iface.id).count_ipaddresses, 1, "interface count_ipaddresses")
        eq(ids(nb.ipam.ip_addresses.filter(virtual_machine_id=vms[0].id)), [ip.id], "ip_addresses.filter(virtual_machine_id=)")
        for bad, field in (({"cluster": cluster.id, "site": other.id}, "cluster"),
                           ({"site": site.id, "disk": 5, "vcpus": 0.001}, "vcpus")):
            try:
                vms.append(nb.virtualization.virtual_machines.create(name="bad-" + SFX, **bad))
            except RequestError as exc:
                eq(exc.req.status_code, 400, "bad VM {}: status".format(bad))
                check(field in exc.error, "bad VM {}: error does not name {}: {}", bad, field, exc.error)
            else:
                check(False, "VM {} was created", bad)
        eq(nb.virtualization.virtual_machines.count(name__ic=SFX), 3, "VMs after the refused ones")
        try:
            nb.virtualization.virtual_disks.create(virtual_machine=vms[1].id, name="sda", size=1)
        except RequestError as exc:
            eq(exc.req.status_code, 400, "a second disk sda: status")
        else:
            check(False, "a second disk named sda was created")
        try:
            cluster.delete()
        except RequestError as exc:
            eq(exc.req.status_code, 409, "deleting a cluster with VMs: status")
        else:
            check(False, "a cluster with VMs was deleted")
            made.remove(cluster)
    finally:
        for vm in vms:
            vm.delete()
        for obj in reversed(made):
            obj.delete()
    eq(nb.virtualization.interfaces.get(iface.id), None, "an interface left after its VM's delete")
    eq(nb.ipam.ip_addresses.get(ip.id), None, "an IP address left after its VM interface's delete")


def owners():
    """an owner group, an owner with a user and a user group, an owner on a prefix filtered by owner_id"""
    made = []
    try:
        grp = nb.users.owner_groups.create(name="Network " + SFX, description="network teams")
        made.append(grp)
        ugrp = nb.users.groups.create(name="NetOps staff " + SFX)
        made.append(ugrp)
        me = nb.users.users.get(username=USER)
        owner = nb.users.owners.create(name="NetOps " + SFX, group=grp.id, users=[me.id], user_groups=[ugrp.id])
        made.append(owner)
        eq(owner.group.id, grp.id, "owner's group")
        eq([u.id for u in owner.users], [me.id], "owner's users")
        eq([g.id for g in owner.user_groups], [ugrp.id], "owner's user groups")
        eq(nb.users.owner_groups.get(grp.id).member_count, 1, "owner group member_count")
        eq(ids(nb.users.owners.filter(user_id=me.id, name__ic=SFX)), [owner.id], "owners.filter(user_id=)")
        eq(ids(nb.users.users.filter(owner_id=owner.id)), [me.id], "users.filter(owner_id=)")
        eq(ids(nb.users.groups.filter(owner_id=owner.id)), [ugrp.id], "groups.filter(owner_id=)")

        net = "172.{}.{}.".format(secrets.randbelow(16) + 16, secrets.randbelow(256))
        owned = nb.ipam.prefixes.create(prefix=net + "0/25", owner=owner.id, description=SFX)
        made.append(owned)
        other = nb.ipam.prefixes.create(prefix=net + "128/25", description=SFX)
        made.append(other)
        eq((owned.owner.id, owned.owner.name), (owner.id, owner.name), "prefix owner (nested)")
        eq(other.owner, None, "prefix without owner")
        eq(ids(nb.ipam.prefixes.filter(owner_id=owner.id)), [owned.id], "prefixes.filter(owner_id=)")
        eq(ids(nb.ipam.prefixes.filter(owner=owner.name)), [owned.id], "prefixes.filter(owner=)")
        eq(ids(nb.ipam.prefixes.filter(owner_group_id=grp.id)), [owned.id], "prefixes.filter(owner_group_id=)")
        eq(ids(nb.ipam.prefixes.filter(owner_group=grp.name)), [owned.id], "prefixes.filter(owner_group=)")
        other.owner = owner.id
        eq(other.save(), True, "prefix.save() with an owner")
        eq(nb.ipam.prefixes.count(owner_id=owner.id), 2, "prefixes.count(owner_id=) after save")
        try:
            owner.delete()
        except RequestError as exc:
            eq(exc.req.status_code, 409, "deleting an owner that prefixes use: status")
        else:
            check(False, "an owner with prefixes was deleted")
            made.remove(owner)
        try:
            grp.delete()
        except RequestError as exc:
            eq(exc.req.status_code, 409, "deleting an owner group that owners use: status")
        else:
            check(False, "an owner group with owners was deleted")
            made.remove(grp)
    finally:
        for obj in reversed(made):
            obj.delete()
    eq(nb.users.owners.count(name__ic=SFX), 0, "owners left")


def user_objects():
    """a bookmark and a subscription on a site, the subscriber notified of its change; a saved filter, a custom link"""
    site = S["site"]
    made = []
    try:
        me = nb.users.users.get(username="admin")
        bm = nb.extras.bookmarks.create(object_type="dcim.site", object_id=site.id, user=me.id)
        made.append(bm)
        eq(bm.object.id, site.id, "bookmark's object")
        eq(bm.display, site.display, "bookmark's display")
        eq(bm.user.username, "admin", "bookmark's user")
        sub = nb.extras.subscriptions.create(object_type="dcim.site", object_id=site.id, user=me.id)
        made.append(sub)
        eq(nb.extras.subscriptions.get(sub.id).object.id, site.id, "subscription's object")
        site.description = "watched " + SFX
        eq(site.save(), True, "save the subscribed site")
        notes = list(nb.extras.notifications.filter(object_type="dcim.site", object_id=site.id))
        made.extend(notes)
        eq([(n.event_type, n.user.id, n.read) for n in notes], [("object_updated", me.id, None)], "the site's notifications")
        sf = nb.extras.saved_filters.create(name="Watched " + SFX, slug="watched-" + SFX, object_types=["dcim.site"],
                                            parameters={"description__ic": "watched"}, shared=False, user=me.id)
        made.append(sf)
        eq(ids(nb.extras.saved_filters.filter(object_type="dcim.site", slug=sf.slug)), [sf.id], "saved filter by type")
        eq(nb.extras.saved_filters.get(sf.id).user, me.id, "saved filter's user (a bare id)")
        cl = nb.extras.custom_links.create(name="Docs " + SFX, object_types=["dcim.site"], link_text="Docs",
                                           link_url="https://docs.example.com/{{ object.slug }}", button_class="blue")
        made.append(cl)
        eq(cl.button_class, "blue", "custom link's button class (a bare value)")
    finally:
        for obj in reversed(made):
            obj.delete()


def media():
    """a PNG uploaded to a site (multipart), listed, fetched back byte for byte from its image URL, gone after its delete; a journal entry"""
    import base64
    import io
    site = S["site"]
    png = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEElEQVR4nGM4IScHRAwoFABEDQYZFCZhYwAAAABJRU5ErkJggg==")
    f = io.BytesIO(png)
    f.name = "front door.png"
    att = nb.extras.image_attachments.create(object_type="dcim.site", object_id=site.id, name="Front " + SFX, image=f)
    try:
        eq((att.image_width, att.image_height, att.image_size), (2, 3, len(png)), "width, height, size")
        eq(att.parent.id, site.id, "attachment's parent")
        eq(ids(nb.extras.image_attachments.filter(object_type="dcim.site", object_id=site.id)), [att.id],
           "attachments of the site")
        scheme = "Bearer " if nb.token.startswith("nbt_") else "Token "
        auth = {"Authorization": scheme + nb.token}
        r = nb.http_session.get(att.image, headers=auth)
        eq(r.status_code, 200, "GET image URL: status")
        eq(r.content, png, "image fetched back")
        eq(r.headers.get("Content-Type"), "image/png", "image Content-Type")
        att.description = "north side"
        eq(att.save(), True, "save() of the description")
        eq(nb.extras.image_attachments.get(att.id).description, "north side", "description after save()")
        svg = io.BytesIO(b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
        svg.name = "x.png"
        try:
            nb.extras.image_attachments.create(object_type="dcim.site", object_id=site.id, image=svg)
        except RequestError as exc:
            eq(exc.req.status_code, 400, "SVG upload: status")
            check("image" in exc.error, "SVG upload: error does not name image: {}", exc.error)
        else:
            check(False, "an SVG was accepted")
    finally:
        eq(att.delete(), True, "delete the attachment")
    eq(nb.http_session.get(att.image, headers=auth).status_code, 404, "image URL after the delete")
    j = nb.extras.journal_entries.create(assigned_object_type="dcim.site", assigned_object_id=site.id,
                                         kind="warning", comments="Batteries " + SFX)
    try:
        check(j.created_by is not None, "journal entry without created_by")
        eq(j.kind.value, "warning", "journal kind")
        eq(ids(nb.extras.journal_entries.filter(assigned_object_type="dcim.site", assigned_object_id=site.id)),
           [j.id], "journal of the site")
    finally:
        eq(j.delete(), True, "delete the journal entry")


def cable_paths():
    """the issue's cabling walk-through: two devices' interfaces connected through a patch panel
    (front port to rear port) by two cables show each other as connected_endpoints, trace() shows
    the hops, the panel's ports list the paths, connected-device finds the far device; deleting a
    cable clears both ends; a power cable and a console cable behave the same way"""
    site, dt, role = S["site"], S["device_type"], S["role"]
    devs = [nb.dcim.devices.create(name="{}-{}".format(n, SFX), device_type=dt.id, role=role.id, site=site.id)
            for n in ("cab-a", "cab-b", "panel")]
    a, b, panel = devs
    try:
        rear = nb.dcim.rear_ports.create(device=panel.id, name="R1", type="8p8c")
        front = nb.dcim.front_ports.create(device=panel.id, name="F1", type="8p8c",
                                           rear_ports=[{"position": 1, "rear_port": rear.id, "rear_port_position": 1}])
        ia = nb.dcim.interfaces.get(device_id=a.id, name="ge-0/0/0")
        ib = nb.dcim.interfaces.get(device_id=b.id, name="ge-0/0/0")

        def end(ct, obj):
            return [{"object_type": ct, "object_id": obj.id}]

        c1 = nb.dcim.cables.create(a_terminations=end("dcim.interface", ia), b_terminations=end("dcim.frontport", front))
        c2 = nb.dcim.cables.create(a_terminations=end("dcim.rearport", rear), b_terminations=end("dcim.interface", ib))
        for me, peer in ((ia, ib), (ib, ia)):
            got = nb.dcim.interfaces.get(me.id)
            eq([e.id for e in got.connected_endpoints or []], [peer.id], "connected_endpoints of interface {}".format(me.id))
            eq(got.connected_endpoints_type, "dcim.interface", "connected_endpoints_type")
            eq(got.connected_endpoints_reachable, True, "connected_endpoints_reachable")
        hops = nb.dcim.interfaces.get(ia.id).trace()
        eq(len(hops), 6, "trace() items (two segments of near ends, cable, far ends)")
        eq([[t.id for t in hops[0]], hops[1].id, [t.id for t in hops[2]], [t.id for t in hops[3]], hops[4].id,
            [t.id for t in hops[5]]], [[ia.id], c1.id, [front.id], [rear.id], c2.id, [ib.id]], "trace() hops")
        paths = nb.dcim.front_ports.get(front.id).paths()
        eq(len(paths), 2, "paths() through the front port (one from each side)")
        eq(sorted(len(p["path"]) for p in paths), [6, 6], "steps of each path")
        eq(nb.dcim.interfaces.count(device_id=a.id, connected=True), 1, "interfaces.count(connected=True)")
        auth = {"Authorization": ("Bearer " if nb.token.startswith("nbt_") else "Token ") + nb.token}
        dev = nb.http_session.get(URL + "/api/dcim/connected-device/", params={"peer_device": a.name, "peer_interface": ia.name},
                                  headers=auth)
        eq(dev.status_code, 200, "connected-device status")
        eq(dev.json().get("id"), b.id, "connected-device answers the far device")
        eq(c1.delete(), True, "delete the first cable")
        for me in (ia, ib):
            got = nb.dcim.interfaces.get(me.id)
            eq(got.connected_endpoints, None, "connected_endpoints of interface {} after the cable went".format(me.id))
            eq(got.connected_endpoints_reachable, False, "connected_endpoints_reachable after the cable went")

        pp = nb.dcim.power_ports.get(device_id=a.id, name="PSU1")
        po = nb.dcim.power_outlets.create(device=b.id, name="Outlet1")
        cp = nb.dcim.console_ports.create(device=a.id, name="Console")
        csp = nb.dcim.console_server_ports.create(device=b.id, name="Port1")
        for ep, (near, near_ct), (far, far_ct) in (
                (nb.dcim.power_ports, (pp, "dcim.powerport"), (po, "dcim.poweroutlet")),
                (nb.dcim.console_ports, (cp, "dcim.consoleport"), (csp, "dcim.consoleserverport"))):
            c = nb.dcim.cables.create(a_terminations=end(near_ct, near), b_terminations=end(far_ct, far))
            got = ep.get(near.id)
            eq([e.id for e in got.connected_endpoints or []], [far.id], "connected_endpoints of the " + near_ct)
            eq(got.connected_endpoints_type, far_ct, "connected_endpoints_type of the " + near_ct)
            hops = got.trace()
            eq([[t.id for t in hops[0]], hops[1].id, [t.id for t in hops[2]]], [[near.id], c.id, [far.id]], near_ct + " trace()")
            eq(c.delete(), True, "delete the " + near_ct + " cable")
            eq(ep.get(near.id).connected_endpoints, None, "connected_endpoints of the " + near_ct + " after the cable went")
    finally:
        for d in reversed(devs):
            eq(d.delete(), True, "delete device {}".format(d.name))


def cleanup():
    """Record.delete() of everything created, in dependency order"""
    # Single deletes in dependency order; protected objects go last.
    for key in ("vlans", "prefixes"):
        for obj in S.get(key, []):
            eq(obj.delete(), True, "delete {} {}".format(key, obj.id))
    if "device" in S:
        eq(S["device"].delete(), True, "delete device")
        if "interface" in S:
            eq(nb.dcim.interfaces.get(S["interface"].id), None, "an interface left after its device's delete")
    for key in ("rack", "device_type", "role", "manufacturer"):
        if key in S:
            eq(S[key].delete(), True, "delete {}".format(key))
    for s in S.get("sites", []):
        eq(s.delete(), True, "delete site {}".format(s.id))
    eq(nb.dcim.sites.get(S["site"].id) if "site" in S else None, None, "deleted site still there")
    rest = list(nb.tenancy.tenants.filter(name__ic=SFX))
    if rest:
        eq(nb.tenancy.tenants.delete(rest), True, "delete remaining tenants")
    for key in ("north", "south", "west"):
        if key in S:
            eq(S[key].delete(), True, "delete region {}".format(key))
            check(nb.dcim.regions.get(S["europe"].id) is not None, "deleting region {} deleted its parent Europe", key)
    for key in ("europe", "asia", "red", "blue"):
        if key in S:
            eq(S[key].delete(), True, "delete {}".format(key))
    eq(nb.dcim.regions.count(name__ic=SFX), 0, "regions left")
    eq(nb.tenancy.tenants.count(name__ic=SFX), 0, "tenants left")


def templates():
    """a config template on the device's role renders the device's config context and data (JSON and
    text/plain), config_template_id chooses another; an export template renders the filtered site list"""
    dev, role, site = S["device"], S["role"], S["site"]
    auth = {"Authorization": ("Bearer " if nb.token.startswith("nbt_") else "Token ") + nb.token}
    made = []
    try:
        ct = nb.extras.config_templates.create(
            name="base " + SFX, template_code="hostname {{ device.name }}\n{% for s in ntp_servers %}ntp server {{ s }}\n{% endfor %}")
        made.append(ct)
        other = nb.extras.config_templates.create(name="other " + SFX, template_code="site {{ device.site.name }} {{ x }}")
        made.append(other)
        role = nb.dcim.device_roles.get(role.id)
        role.config_template = ct.id
        role.save()
        dev = nb.dcim.devices.get(dev.id)
        dev.local_context_data = {"ntp_servers": ["192.0.2.1", "192.0.2.2"]}
        dev.save()
        want = "hostname {}\nntp server 192.0.2.1\nntp server 192.0.2.2\n".format(dev.name)
        out = dev.render_config.create()
        eq(out["configtemplate"]["id"], ct.id, "render_config: the role's template")
        eq(out["content"], want, "render_config content")
        out = dev.render_config.create({"config_template_id": other.id, "x": 1})
        eq(out["content"], "site {} 1".format(site.name), "render_config with config_template_id and a context key")
        r = nb.http_session.post("{}/api/dcim/devices/{}/render-config/".format(URL, dev.id), json={},
                                 headers=dict(auth, Accept="text/plain"))
        eq((r.status_code, r.headers.get("Content-Type"), r.text), (200, "text/plain; charset=utf-8", want),
           "render-config as text/plain")
        r = nb.http_session.post("{}/api/extras/config-templates/{}/render/".format(URL, ct.id),
                                 json={"device": {"name": "x"}, "ntp_servers": []}, headers=auth)
        eq((r.status_code, r.json().get("content")), (200, "hostname x\n"), "config-templates render")
        try:
            nb.extras.config_templates.create(name="broken " + SFX, template_code="{% for x in %}")
            check(False, "a template that does not parse was saved")
        except RequestError as e:
            eq(e.req.status_code, 400, "status of a broken template")
            check("template_code" in (e.error or ""), "broken template error does not name template_code: {}", e.error)

        et = nb.extras.export_templates.create(name="slugs " + SFX, object_types=["dcim.site"], mime_type="text/csv",
                                               file_extension="csv",
                                               template_code="slug\n{% for s in queryset %}{{ s.slug }}\n{% endfor %}")
        made.append(et)
        r = nb.http_session.get("{}/api/dcim/sites/".format(URL), params={"export": et.name, "slug": site.slug}, headers=auth)
        eq((r.status_code, r.headers.get("Content-Type"), r.text), (200, "text/csv", "slug\n{}\n".format(site.slug)),
           "?export= of the site list")
        eq(r.headers.get("Content-Disposition"), 'attachment; filename="netbox_sites.csv"', "export file name")
        r = nb.http_session.get("{}/api/dcim/sites/".format(URL), params={"export": "no such " + SFX}, headers=auth)
        eq(r.status_code, 404, "?export= of an unknown template")
    finally:
        role = nb.dcim.device_roles.get(role.id)
        if role.config_template:
            role.config_template = None
            role.save()
        for obj in reversed(made):
            obj.delete()


def config_contexts():
    """the issue's config contexts: a site-wide context of weight 100 and a role-specific one of weight
    200 merge under the device's local context data in its config_context, absent with exclude"""
    site, role, dev = S["site"], S["role"], S["device"]
    wide = nb.extras.config_contexts.create(name="site wide " + SFX, weight=100, sites=[site.id],
                                            data={"ntp": {"servers": ["192.0.2.1"], "tz": "UTC"}, "dns": "192.0.2.53"})
    specific = nb.extras.config_contexts.create(name="role " + SFX, weight=200, roles=[role.id],
                                                data={"ntp": {"servers": ["192.0.2.2"]}, "syslog": "192.0.2.5"})
    eq(wide.sites[0].id, site.id, "context sites (nested)")
    eq(nb.extras.config_contexts.count(site_id=site.id), 1, "config_contexts.count(site_id=)")
    eq(nb.extras.config_contexts.count(device_role_id=role.id), 1, "config_contexts.count(device_role_id=)")
    dev.local_context_data = {"dns": "192.0.2.99"}
    check(dev.save(), "saving the device's local context data changed nothing")
    want = {"ntp": {"servers": ["192.0.2.2"], "tz": "UTC"}, "dns": "192.0.2.99", "syslog": "192.0.2.5"}
    eq(nb.dcim.devices.get(dev.id).config_context, want, "device config_context")
    listed = list(nb.dcim.devices.filter(id=dev.id))
    eq(listed[0].config_context, want, "listed device config_context")
    excluded = list(nb.dcim.devices.filter(id=dev.id, exclude="config_context"))
    check("config_context" not in dict(excluded[0]), "config_context rendered with exclude=config_context")
    eq(dict(excluded[0])["local_context_data"], {"dns": "192.0.2.99"}, "local_context_data with exclude")
    specific.weight = 50
    check(specific.save(), "saving the context's weight changed nothing")
    eq(nb.dcim.devices.get(dev.id).config_context["ntp"]["servers"], ["192.0.2.1"],
       "the site-wide context wins once it weighs more")
    eq(nb.extras.config_contexts.delete([wide, specific]), True, "delete the contexts")
    eq(nb.dcim.devices.get(dev.id).config_context, {"dns": "192.0.2.99"}, "config_context without contexts")


def main():
    print("pynetbox {} against {} (suffix {})".format(pynetbox.__version__, URL, SFX))
    section("provisioning", provisioning)
    if "provisioning" in FAILED:
        if "token" not in S:
            summary()
        # Keep going to find more failures, with the credential NetBox's
        # response would have made pynetbox build.
        nb.token = "nbt_{}.{}".format(S["token"].key, S["token"].token)
        print("     (continuing with nb.token = nbt_<key>.<token> built from the provisioning response)")
    section("status", status)
    section("tags", tags, fatal=True)
    section("regions", regions)
    section("tenants", tenants)
    section("cursor", cursor, needs=["tenants", "tenant"])
    section("sites", sites, needs=["europe", "asia", "west", "tenant"])
    section("prefixes", prefixes, needs=["site", "tenant"])
    section("vlans", vlans, needs=["site", "tenant"])
    section("devices", devices, needs=["site"])
    section("allocation", allocation, needs=["device", "interface"])
    section("bulk", bulk, needs=["tenants"])
    section("circuits", circuits, needs=["site"])
    section("contacts", contacts, needs=["site"])
    section("virtualization", virtualization, needs=["site"])
    section("templates", templates, needs=["device", "role", "site"])
    section("config contexts", config_contexts, needs=["site", "role", "device"])
    section("owners", owners)
    section("user_objects", user_objects, needs=["site"])
    section("media", media, needs=["site"])
    section("cable paths", cable_paths, needs=["site", "device_type", "role"])
    section("cleanup", cleanup)
    summary()


if __name__ == "__main__":
    main()
