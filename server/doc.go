// Package server is the HTTP side of inventory: the gin engine, middleware
// (request id, API-Version, authentication, body limits, recovery), the one
// error translator, and the generic handlers that serve every model
// registered in ent/resource: list, retrieve, create, update, delete, their
// bulk forms and OPTIONS. Nothing here is per-model; a new model needs no
// change in this package.
//
// It must not import cmd. Subpackages: auth (token and password crypto).
//
// # Tests
//
// `make test` runs the per-model suites (`TestConformance`,
// `TestPermissionsEveryModel`) as one parallel subtest per model and
// database, each with a server of its own (`-parallel 12`; `TEST_PARALLEL=n`
// overrides). `TestConformance/<model>/<database>/<aspect>` runs one aspect
// alone, e.g. `go test ./server/ -run
// 'TestConformance/dcim.site$/sqlite/filters'`. Golden responses
// (`testdata/golden/<app>.<model>/`) and read-query baselines
// (`testdata/querycounts.json`) are shared by SQLite and PostgreSQL; `make
// test-update` (sets `INVENTORY_UPDATE_GOLDEN=1`) rewrites them, and creates
// them for a new model.
//
// Each test server gets a fresh database copied from a template that its
// test process migrates once (servertest/template.go): PostgreSQL's `CREATE
// DATABASE ... TEMPLATE` (databases `invt_*`; those of test processes that
// have ended are dropped by the next one), SQLite's migrated file.
//
// `go test ./server/ -run TestBrowser` drives headless Chromium (Debian's
// `chromium`; `INVENTORY_CHROMIUM` names another) through login, a list, a
// site, a `PATCH` through the form and logout, and keeps a screenshot per
// step in `artifacts/browser/` (`$INVENTORY_ARTIFACTS/browser`). Without
// Chromium it is skipped, except in CI (`.ci/run` installs it).
//
// The times of the suite are in testdata/benchmarks.md, "Test time".
//
// # OpenAPI conformance
//
// The OpenAPI document is checked against what is served: the conformance
// suite runs every request through `servertest.Env.CheckOpenAPI`, which
// validates each request and response with kin-openapi's `openapi3filter`
// (statuses, bodies and formats; a request the document refuses must not be
// answered 2xx; a 405's `Allow` must name the document's methods) and fails
// on any finding, on both databases. `make conformance`
// (`.ci/conformance.sh`) runs schemathesis, pinned in
// `testdata/openapi/requirements.txt`, with every check but
// `positive_data_acceptance` (a schema-valid body may still name objects
// that do not exist) against a live server; `CONFORMANCE_EXAMPLES` and
// `CONFORMANCE_ARGS` (e.g. `--include-path-regex ^/api/dcim/`) bound a run.
// Measured (issue 16, two shared cores, `CONFORMANCE_EXAMPLES=3`, seed 1):
// it covers 1,050 of the document's 1,062 operations (the 12 left out change
// or delete users and tokens, which would lock the fuzzer out), about
// 290,000 requests in 10 to 13 minutes per database (the coverage phase
// about 9 minutes, fuzzing about 1.5); the stateful phase runs no scenarios
// over the whole document, only when a run is narrowed with
// `CONFORMANCE_ARGS`. The first complete run found 16 failures and 31
// operations the fuzzer could not test (the boolean text pattern was no ECMA
// 262 regex); the latest complete runs found 6 on each database, all in list
// filter parameters whose "invalid" value, a branch of the `anyOf` that
// admits a blank, is valid once written into the query string. Filter values
// of numbers, dates and booleans are now pattern-typed strings
// (`FilterInteger`, `FilterDate`... in `server/openapi_filtertext.go`,
// patterns pinned against the parser by `TestOpenAPIFilterTexts`). The
// complete run after that change (2026-11-28, `CONFORMANCE_EXAMPLES=3`, seed
// 1, both databases) reports zero findings: 309,339 test cases on SQLite and
// 309,333 on PostgreSQL, all passed (coverage phase 14 and 20 minutes,
// fuzzing 2 minutes, while the Go suite ran beside it). Its warnings are
// about data, not the document: operations whose generated ids name no
// object (404), `tokens/provision/` refusing the fuzzer's made-up passwords
// (403), and a dozen whose schema-valid bodies the models' rules refuse (a
// tenant still referenced, a duplicate name). Findings on SQLite do not skip
// the PostgreSQL run; the target fails at the end if either had findings. A
// 412 counts as a rejection of invalid data (the If-Match check comes before
// the body's, as in NetBox and RFC 9110 §13.2.2). The default of 10 examples
// per operation has not been timed. The document says what the server
// accepts, as DRF's fields do: numbers for text, numeric text for numbers,
// `0`/`1` and `"yes"`/`"on"`... for booleans, `null` for tags and custom
// fields, `"null"` for relation filters; and no response property is
// required, since `?fields=`, `?omit=` and `?brief=` may leave any out. The
// document's top-level keys come in the conventional order (`openapi`,
// `info`, `paths`, `components`, in JSON and YAML) so tools that sniff the
// first bytes recognise it, and the scripts upload is described as
// `multipart/form-data` as well as JSON with a base64 data URI.
package server
