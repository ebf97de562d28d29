"""Extract NetBox's filter names and lookups into netbox_filters.json.

Run in the repository's root:

    python3 ent/resource/netboxfilters_extract.py > ent/resource/netbox_filters.json

It reads testdata/reference/netbox-models.json (a copy of the shared
reference: NetBox 4.6.8's filter sets, with the lookups its 4.2 OpenAPI
schema lists) and writes, per content type, every filter NetBox declares and
the `__<lookup>` suffixes NetBox generates for it. A choice filter gets the
character lookups NetBox 4.6 generates for it (BaseFilterSet.
_get_filter_lookup_dict maps ChoiceFilter and MultipleChoiceFilter to
FILTER_CHAR_BASED_LOOKUP_MAP), which the 4.2 schema left out of many
(`distance_unit__n`): the reference keeps those as lookups_inferred_4_6.
"""
import json
import sys

ref = json.load(open('testdata/reference/netbox-models.json'))['endpoints']
out = {}
for ep, e in sorted(ref.items()):
    if e.get('kind') != 'model' or not e.get('content_type'):
        continue
    fs = e.get('filters') or {}
    table = {}
    for name, f in fs.items():
        if '__' in name:
            continue
        lookups = list(f.get('lookups') or [])
        if f.get('kind') == 'choice':
            lookups += f.get('lookups_inferred_4_6') or []
        table[name] = set(lookups)
    # Filters listed under their lookup name (mask_length__gte) make the
    # lookup of their base filter.
    for name in fs:
        if '__' in name:
            base, lookup = name.rsplit('__', 1)
            table.setdefault(base, set()).add(lookup)
    out[e['content_type']] = {n: ','.join(sorted(ls)) for n, ls in sorted(table.items())}

doc = {
    'source': 'NetBox v4.6.8 filter sets (testdata/reference/netbox-models.json), extracted with netboxfilters_extract.py: '
              'per content type, each filter name and its lookup suffixes, comma separated',
    'filters': out,
}
json.dump(doc, sys.stdout, indent=0, sort_keys=True)
sys.stdout.write('\n')
