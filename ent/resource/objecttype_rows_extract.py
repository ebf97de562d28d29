#!/usr/bin/env python3
"""Writes objecttype_rows.json: NetBox 4.6.8's object types as its API lists
them (GET /api/core/object-types/ on the public demo data, migrated to 4.6.8:
../shared/netbox-demo/core.object-types.json.gz), by content type, for the
rows core/object-types serves (objecttypes.go, SyncObjectTypes): the id
NetBox gave each, its display, names, description, features, public and
rest_api_endpoint. URLs and hosts are dropped.

usage: objecttype_rows_extract.py <core.object-types.json.gz> > objecttype_rows.json
"""
import gzip
import json
import sys

rows = json.load(gzip.open(sys.argv[1]))
out = {}
for r in rows:
    out[r["app_label"] + "." + r["model"]] = {
        "id": r["id"],
        "display": r["display"],
        "app_name": r["app_name"],
        "model_name": r["model_name"],
        "model_name_plural": r["model_name_plural"],
        "public": r["public"],
        "features": r["features"],
        "is_plugin_model": r["is_plugin_model"],
        "rest_api_endpoint": r["rest_api_endpoint"],
        "description": r["description"],
    }
json.dump({"source": "NetBox 4.6.8, GET /api/core/object-types/ on the netbox-demo-data set (objecttype_rows_extract.py)",
           "rows": out}, sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
sys.stdout.write("\n")
