// Package session keeps the browsable API's logins: the sessions a
// browser's cookie names (stored in the database's core_session table,
// so that every replica shares them and a logout or revocation anywhere
// ends them everywhere), their CSRF tokens, the gocron job that prunes
// expired rows, and the limiter of failed logins.
//
// It knows nothing of HTTP routing: server/session.go serves /login/ and
// /logout/ and authenticates API requests with these sessions.
package session
