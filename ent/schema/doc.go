// Package schema holds one ent schema per API model (<app>_<model>.go) and
// the mixins that mirror NetBox's base models. The API annotation on each
// schema (package api) is all the generator needs to serve the model.
package schema
