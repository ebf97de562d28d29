import ast, glob, json, os, re
CORE_APPS = ['account','circuits','core','dcim','extras','ipam','tenancy','users','utilities','virtualization','vpn','wireless']
classes = {}  # name -> (bases, abstract, private, app, file, proxy, meta)
for path in glob.glob('netbox/**/*.py', recursive=True):
    parts = path.split('/')
    app = parts[1]
    if 'models' not in path: continue
    tree = ast.parse(open(path).read())
    for node in tree.body:
        if not isinstance(node, ast.ClassDef): continue
        bases = []
        for b in node.bases:
            if isinstance(b, ast.Name): bases.append(b.id)
            elif isinstance(b, ast.Attribute): bases.append(b.attr)
        abstract = private = proxy = False
        for st in node.body:
            if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == '_netbox_private' for t in st.targets):
                private = True
            if isinstance(st, ast.ClassDef) and st.name == 'Meta':
                for m in st.body:
                    if isinstance(m, ast.Assign) and any(isinstance(t, ast.Name) and t.id == 'abstract' for t in m.targets):
                        abstract = getattr(m.value, 'value', False) is True
                    if isinstance(m, ast.Assign) and any(isinstance(t, ast.Name) and t.id == 'proxy' for t in m.targets):
                        proxy = True
        classes[node.name] = (bases, abstract, private, app, path, proxy)
# Bases from Django and third-party packages that are models themselves.
EXTERNAL_MODELS = {'AbstractBaseUser', 'ContentType', 'GenericTaggedItemBase', 'TagBase', 'MPTTModel'}
def ancestors(n, seen=None):
    seen = set() if seen is None else seen
    if n in EXTERNAL_MODELS:
        seen.add('Model')
    for b in classes.get(n, ([],))[0]:
        if b not in seen:
            seen.add(b); ancestors(b, seen)
    return seen
FEATURES = {'bookmarks':'BookmarksMixin','change_logging':'ChangeLoggingMixin','cloning':'CloningMixin','contacts':'ContactsMixin','custom_fields':'CustomFieldsMixin','custom_links':'CustomLinksMixin','custom_validation':'CustomValidationMixin','event_rules':'EventRulesMixin','export_templates':'ExportTemplatesMixin','image_attachments':'ImageAttachmentsMixin','jobs':'JobsMixin','journaling':'JournalingMixin','notifications':'NotificationsMixin','synced_data':'SyncedDataMixin','tags':'TagsMixin'}
out = {}
for n, (bases, abstract, private, app, path, proxy) in sorted(classes.items()):
    anc = ancestors(n)
    if 'Model' not in anc or abstract: continue
    if app == 'netbox' or 'models' not in path: continue
    # private inherited too (getattr)
    priv = private or any(classes.get(a, (0,0,False))[2] for a in anc if a in classes)
    feats = sorted(f for f, m in FEATURES.items() if m in anc or n == m)
    out[app + '.' + n.lower()] = {'public': (app in CORE_APPS) and not priv, 'features': feats, 'proxy': proxy}
print(json.dumps(out, indent=1))
