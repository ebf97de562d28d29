package dcim

import (
	"encoding/json"
)

// asFloat reads a decimal column value of either driver (0 when null).
func asFloat(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case float32:
		return float64(x)
	case int64:
		return float64(x)
	case int:
		return float64(x)
	case *float64:
		if x != nil {
			return *x
		}
	}
	return 0
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
