// Package ent is the generated ent code of every model (the clients,
// builders, mutations and the migrate schema), rendered by entc.go from
// ent/schema with the templates of ent/template; never edit the generated
// files, run `make generate` (`make generate-check` fails when they are
// stale).
//
// # Compile budget
//
// Every type's builders, mutation and client live in the root `ent` package,
// recompiled after every schema change. These levers keep it cheap: ent's
// unused features `sql/modifier` and `intercept` are off; types marked
// `GenericOnly` (most of them) get slim generated code; and dev and test
// builds (`make build`, `make test`) compile that one package without
// inlining and without DWARF (`ENT_GCFLAGS`:
// `-gcflags=github.com/inventory/inventory/ent=-l -dwarf=false`; only a
// debugger loses the generated code, stack traces and profiles keep it),
// while `make release` and `make bench` keep both.
//
// A `GenericOnly` type is served by the generic layer alone, which reads
// through `sql.Selector` and writes through `Create().Mutation()`,
// `UpdateOneID(id).Mutation()` and `DeleteOneID(id)`. For those types
// `ent/template/` overrides ent's templates (an external template named like
// a built-in replaces it; ent's original stays, as a `helper/` copy or
// behind a condition, for the other types): `setter.tmpl` leaves the create
// and update builders only `Mutation()`; `query.tmpl` leaves the query
// builder `Where`, `Limit`, `Offset`, `Unique`, `Order`, `First`, `Only`,
// `All`, `IDs` and `Clone` (what `Get`, a mutation's `OldField` and `IDs`,
// typed types' eager loading and traversal into the type, and the webhooks'
// reads of EventRule and Webhook use), without eager loading, edge
// traversal, group-by and select builders; `model.tmpl` drops the entity's
// edges and `Update`; `mutation.tmpl` drops the typed `Old<Field>` methods
// (`OldField` loads the old row once); `client.tmpl` drops edge traversal
// from an entity, `MapCreateBulk`, `GetX`, and `UpdateOne`/`DeleteOne` of an
// entity. Hand-written code (tests included) calling one of those on a
// `GenericOnly` type does not compile: drop `GenericOnly` for that type, or
// go through the generic layer.
//
// What is left of a `GenericOnly` type (Site: 3.1k lines) is mostly its
// mutation (43%: the typed setters and getters that the create and update
// builders and the generic `SetField`/`Field` call) and its update builders
// (20%: bulk and one, each with its own `sqlSave`); trimming those means
// rewriting ent's create and update `sqlSave` templates to read the mutation
// generically. That is the next lever.
//
// `make scale-check` (`.ci/scale-check.sh`, run by CI) generates the tree
// with synthetic models up to 120 types and fails above 2.5 GB peak or 110 s
// CPU for the root package's rebuild (margin for load and for real models
// larger than the synthetic ones); losing the slim templates or inlining
// fails it, losing only `-dwarf=false` is at the edge. The target at 120
// models is 60 s CPU and 3 GB.
//
// Code generation (`make generate`) was the larger cost at scale: 306 s CPU
// (9 min wall at that load) for 120 types. A profile put two thirds of it in
// `golang.org/x/tools/imports.Process`, which ent runs on every generated
// file: ent's templates use `encoding/json` and `database/sql/driver`
// without importing them, and to find a missing import goimports parses
// every other file of the package, quadratic in the number of types.
// `ent/template/imports.tmpl` imports both everywhere (goimports drops them
// where unused, which needs no other file): 27–39 s CPU, 31–33 s wall at 120
// types. The whole `make scale-check` takes 3–5 min wall at load 5–6.
//
// The measurements behind these figures (rebuild CPU and memory per
// configuration, the slope per added model, the runtime cost of no inlining)
// are in testdata/benchmarks.md, "Compile budget".
package ent
