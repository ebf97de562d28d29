// Package tenancy holds the domain rules of NetBox's tenancy app that are
// more than declarations; ent/schema wires them in as hooks and display
// functions.
//
//   - Contact assignments (contacts.go): the display is NetBox's
//     ContactAssignment.__str__, "<contact> (<priority>) -> <object>". It
//     reads a hidden copy of the contact's name, kept by these hooks as
//     the assignment is written and as the contact is renamed, and a
//     hidden copy of the object's display, which the resource layer writes
//     with the generic relation (_object_display). Which objects take
//     contacts is data: NetBox's "contacts" feature (api.Field.ObjectTypes).
package tenancy
