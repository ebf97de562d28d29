package ent

//go:generate go run -C .. ./ent/entc.go
