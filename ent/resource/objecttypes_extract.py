"""Extract NetBox's object types and their features into netbox_object_types.json.

Run in the root of a NetBox checkout (the tag the service follows, v4.6.8):

    python3 path/to/objecttypes_extract.py > path/to/netbox_object_types.json

It reads every class under netbox/<app>/models with Python's ast (NetBox is
not imported), follows base classes by name, and gives each concrete model
the features netbox/netbox/models/features.py registers for it
(register_model_feature: issubclass of the feature's mixin) and whether it is
public (model_is_public: an app of CORE_APPS and no _netbox_private).
"""
import ast
import glob
import json
import re

CORE_APPS = ['account', 'circuits', 'core', 'dcim', 'extras', 'ipam', 'tenancy', 'users', 'utilities',
             'virtualization', 'vpn', 'wireless']
# registry['model_features']: feature -> the mixin a model must subclass.
FEATURES = {
    'bookmarks': 'BookmarksMixin', 'change_logging': 'ChangeLoggingMixin', 'cloning': 'CloningMixin',
    'contacts': 'ContactsMixin', 'custom_fields': 'CustomFieldsMixin', 'custom_links': 'CustomLinksMixin',
    'custom_validation': 'CustomValidationMixin', 'event_rules': 'EventRulesMixin',
    'export_templates': 'ExportTemplatesMixin', 'image_attachments': 'ImageAttachmentsMixin', 'jobs': 'JobsMixin',
    'journaling': 'JournalingMixin', 'notifications': 'NotificationsMixin', 'synced_data': 'SyncedDataMixin',
    'tags': 'TagsMixin',
}
# Bases from Django and third-party packages that are models themselves.
EXTERNAL_MODELS = {'AbstractBaseUser', 'ContentType', 'GenericTaggedItemBase', 'TagBase', 'MPTTModel'}

classes = {}  # name -> (bases, abstract, private, app)
for path in sorted(glob.glob('netbox/*/models.py') + glob.glob('netbox/*/models/*.py')):
    app = path.split('/')[1]
    for node in ast.parse(open(path).read()).body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases = [b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                 if isinstance(b, (ast.Name, ast.Attribute))]
        abstract = private = False
        for st in node.body:
            if isinstance(st, ast.Assign) and any(getattr(t, 'id', '') == '_netbox_private' for t in st.targets):
                private = True
            if isinstance(st, ast.ClassDef) and st.name == 'Meta':
                for m in st.body:
                    if isinstance(m, ast.Assign) and any(getattr(t, 'id', '') == 'abstract' for t in m.targets):
                        abstract = getattr(m.value, 'value', False) is True
        classes[node.name] = (bases, abstract, private, app)


def ancestors(name, seen=None):
    seen = set() if seen is None else seen
    if name in EXTERNAL_MODELS:
        seen.add('Model')
    for b in classes.get(name, ([],))[0]:
        if b not in seen:
            seen.add(b)
            ancestors(b, seen)
    return seen


models = {}
for name, (bases, abstract, private, app) in sorted(classes.items()):
    anc = ancestors(name)
    if 'Model' not in anc or abstract or app == 'netbox':
        continue
    private = private or any(classes[a][2] for a in anc if a in classes)
    models[app + '.' + name.lower()] = {
        'public': app in CORE_APPS and not private,
        'features': sorted(f for f, mixin in FEATURES.items() if mixin in anc),
    }

doc = {
    'source': 'NetBox v4.6.8: every concrete model under netbox/<app>/models, its features as '
              'netbox/netbox/models/features.py registers them (register_model_feature: issubclass of the '
              "feature's mixin) and whether it is public (model_is_public: an app of CORE_APPS and no "
              '_netbox_private); extracted from the source with objecttypes_extract.py',
    'selections': {
        'object_permissions': {
            'source': 'users/constants.py OBJECTPERMISSION_OBJECT_TYPES: (public and not core.objecttype) or '
                      'core.managedfile, extras.scriptmodule, extras.taggeditem',
            'public': True,
            'except': ['core.objecttype'],
            'also': ['core.managedfile', 'extras.scriptmodule', 'extras.taggeditem'],
        },
    },
    'models': dict(sorted(models.items())),
}
text = json.dumps(doc, indent=1)
# One line per list.
text = re.sub(r'\[\n\s+([^\]]*?)\n\s+\]', lambda m: '[' + re.sub(r',\n\s+', ', ', m.group(1)) + ']', text)
print(text)
