// Package conditions is NetBox's condition language for event rules
// (BEHAVIOUR.md §12.3): a JSON ruleset of conditions ({attr, value, op,
// negate}) combined by nested "and"/"or" groups, evaluated against the
// serialized object of an event.
//
// Validate is called by the EventRule schema hook (ent/logic/extras) when
// a rule is written; Evaluate and EvaluateJSON by the webhooks dispatcher
// when it matches outbox events to rules. It is a neutral leaf under
// ent/logic so that the schema need not import webhooks (which imports the
// generated code).
//
// It must import only the standard library and ent/logic/jsonlimit (a
// leaf of the standard library only).
package conditions
