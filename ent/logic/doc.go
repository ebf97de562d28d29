// Package logic is the parent of the per-app domain logic packages.
package logic
