package auth

import (
	"fmt"
	"net/netip"
)

// Error is a client-facing message; its text is the exact "detail" NetBox
// sends. Errors returned by this package either are an Error or wrap one,
// so the middleware can do:
//
//	var e auth.Error
//	if errors.As(err, &e) { render 403 {"detail": string(e)} }
//
// while logging err.Error(), which may carry more context.
type Error string

func (e Error) Error() string { return string(e) }

// Authentication failures (403, raised before permissions are considered).
const (
	ErrHeaderForm      Error = `Invalid authorization header: Must be in the form "Bearer <key>.<token>" or "Token <token>"`
	ErrHeaderChars     Error = "Invalid authorization header: Token contains invalid characters"
	ErrHeaderV2Key     Error = "Invalid authorization header: Could not parse key from v2 token. Did you mean to use 'Token' instead of 'Bearer'?"
	ErrInvalidV1       Error = "Invalid v1 token"
	ErrInvalidV2       Error = "Invalid v2 token" // unknown key and wrong secret alike, on purpose
	ErrTokenDisabled   Error = "Token disabled"
	ErrTokenExpired    Error = "Token expired"
	ErrUserInactive    Error = "User inactive"
	ErrClientIPUnknown Error = "Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s)."
)

// SourceIPNotPermittedFormat is the 403 text for a client outside allowed_ips.
const SourceIPNotPermittedFormat = "Source IP %s is not permitted to authenticate using this token."

// ErrSourceIPNotPermitted renders SourceIPNotPermittedFormat for addr.
func ErrSourceIPNotPermitted(addr netip.Addr) Error {
	return Error(fmt.Sprintf(SourceIPNotPermittedFormat, addr))
}

// Authorization and endpoint texts the middleware and handlers need.
const (
	ErrNotAuthenticated   Error = "Authentication credentials were not provided."      // 403
	ErrPermissionDenied   Error = "You do not have permission to perform this action." // 403, also read-only tokens
	ErrInvalidCredentials Error = "Invalid username/password"                          // 403 from provisioning
	ErrGrantDenied        Error = "This user does not have permission to create tokens for other users."
	ErrNoPeppers          Error = "Unable to save v2 tokens: API_TOKEN_PEPPERS is not defined." // 400 (NetBox: 500)
	// ErrNoPeppersV1 is ours: v1 tokens are hashed with a pepper too, so
	// without peppers they cannot be saved either (NetBox stores them in clear).
	ErrNoPeppersV1 Error = "Unable to save v1 tokens: API_TOKEN_PEPPERS is not defined."
)
