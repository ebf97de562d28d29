package hookguard

import "strings"

// Header names the service sets on every delivery.
const (
	HeaderSignature  = "X-Hook-Signature"
	HeaderDeliveryID = "X-Delivery-ID"
)

// owned are the headers a webhook's additional_headers may not set: the
// transport's framing and routing (a rendered Host, Content-Length or
// Transfer-Encoding would desynchronise or redirect the request) and the
// headers that authenticate and identify a delivery to its receiver.
var owned = map[string]bool{}

func init() {
	for _, h := range []string{"Host", "Content-Length", "Transfer-Encoding", "Connection", HeaderSignature, HeaderDeliveryID} {
		owned[strings.ToLower(h)] = true
	}
}

// Owned reports whether the service owns header name (any case).
func Owned(name string) bool { return owned[strings.ToLower(name)] }

// ValidHeaderName reports whether s is an HTTP token (RFC 9110 §5.6.2).
func ValidHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}
