// Package auth is the pure, storage-free logic behind API authentication:
// API token formats and generation, keyed hashing of token secrets, the
// pepper set, parsing of the Authorization header, the per-request token
// checks (client IP, enabled, expiry), token display, and password hashing.
//
// It mirrors NetBox 4.6 (see reference/BEHAVIOUR.md §2.3 and §3) and returns
// errors whose text is NetBox's exact 403 detail, so the middleware can render
// {"detail": text} unchanged (see Error). It must not import gin, ent or anything that
// touches the database (net/http is used only to read a request's headers
// and peer address): callers look tokens and users up and pass the stored
// fields in.
//
// Departures from NetBox (DESIGN.md §7), each explained where implemented:
//   - v2 tokens use the prefix "svc_"; NetBox's "nbt_" is accepted too.
//   - v1 tokens are stored as a keyed hash (V1Lookup), never as plaintext;
//     display keeps only the last six characters, captured at creation.
//   - The client address for allowed_ips is the peer address unless the
//     operator names proxy headers (ClientIP).
//   - Invalid allowed_ips entries are clean 400s (ParseAllowedIPs), not 500s.
//
// Typical middleware flow (check order is NetBox's):
//
//	cred, err := auth.ParseAuthorization(h)   // err: 403 {"detail": err}
//	v1: look the token up by digest among peppers.V1Lookups(cred.Secret)
//	v2: look up by cred.Key, then auth.Verify(peppers[pepperID], cred.Secret, digest)
//	err = auth.CheckToken(tok, r, ipHeaders, now) // allowed IPs, enabled, expiry
//	if auth.LastUsedStale(tok.LastUsed, now) { update last_used }
//	if !user.Active { 403 auth.ErrUserInactive }
package auth
