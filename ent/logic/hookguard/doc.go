// Package hookguard decides what an outgoing webhook may reach and send,
// in one place for both moments that ask: the delivery (webhooks' guarded
// HTTP client checks every resolved address on the socket it is about to
// connect) and the save (the extras.Webhook hooks refuse a definition whose
// literal target, credentials, owned headers or CA file would be refused
// or dangerous later, so the operator learns at once, not at delivery).
//
// It is a neutral leaf under ent/logic because the schema hooks use it and
// must not import the webhooks package (see ent/logic/doc.go).
//
//	guard.go    Guard: internal address ranges and the operator's allow-list
//	literal.go  LiteralIP: every spelling a resolver reads as an address
//	headers.go  header-name tokens and the names the service owns
//	cafile.go   CAFile: a CA file must lie under the configured directory
//	policy.go   Policy: the running service's settings, carried in the
//	            context of a write to the schema hooks
package hookguard
