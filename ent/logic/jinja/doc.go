// Package jinja renders NetBox-style Jinja2 templates (webhook URLs,
// headers and bodies) with gonja v2, sandboxed:
//
//   - templates see only plain data (maps, lists, strings, numbers, booleans,
//     null), never live objects;
//   - no template can load another: the loader refuses everything but the
//     template itself, and include/import/from/extends/block/macro/call are
//     not available (block and macro allow unbounded recursion);
//   - recursive for-loops and the * and ** operators are refused (unbounded
//     recursion; "x" * 10**10 allocates without producing output);
//   - a template is scanned before it is parsed (scan.go): nesting of
//     brackets and blocks and the number of operators per tag are limited
//     (limits.go), since gonja's parser and evaluator recurse and a stack
//     overflow cannot be recovered;
//   - every value a render keeps (set, with, list.append) is measured
//     (guard.go): none can contain itself, nest deeper than MaxDataDepth or
//     grow beyond the output limit; only namespaces can be written to, as in
//     Jinja2, and no namespace can hold another;
//   - range() and lipsum() draw from a per-render budget, integer filter
//     arguments (center, indent, truncate ...) are capped;
//   - the output size and the render time are limited, and every loop
//     stops once the render timed out.
//
// Two sides use it: the Webhook schema's payload_url validator
// (ent/logic/extras) checks that a templated URL parses when it is
// written, and the webhooks package renders URL, headers and body at
// delivery time. Config and export templates use it the same way (checked
// when saved, rendered by their endpoints), with the parser settings of
// their environment_params (Options). That is why it is a neutral leaf under ent/logic rather
// than part of webhooks: the schema must not import webhooks, which
// imports the generated code.
//
// It must import only gonja and the standard library; never anything of
// this module.
package jinja
