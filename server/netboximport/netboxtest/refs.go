package netboxtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Dangling is a reference to an object the source does not hold.
type Dangling struct {
	Endpoint string // the referring object's endpoint
	ID       int    // and id
	Path     string // where in it: "device", "a_terminations[0].object_id"
	Target   string // the endpoint referred to
	TargetID int
}

func (d Dangling) String() string {
	return fmt.Sprintf("%s %d: %s refers to %s %d, not in the source", d.Endpoint, d.ID, d.Path, d.Target, d.TargetID)
}

// References checks that every reference of every object of src (a
// Lister) resolves within it: nested objects (by their url), generic
// <x>_type/<x>_id pairs (their type's endpoint from core/object-types'
// rest_api_endpoint), cable-terminations' cable and port mappings'
// rear_port/front_port. It holds every id of src in memory: a test helper.
func References(ctx context.Context, src Source) ([]Dangling, error) {
	l, ok := src.(Lister)
	if !ok {
		return nil, fmt.Errorf("netboxtest.References: %T does not list its endpoints", src)
	}
	eps, err := l.Endpoints(ctx)
	if err != nil {
		return nil, err
	}
	ids := map[string]map[int]bool{}
	types := map[string]string{} // "dcim.interface" → "dcim/interfaces"
	for _, ep := range eps {
		set := map[int]bool{}
		ids[ep] = set
		err := src.Pages(ctx, ep, func(objs []json.RawMessage) error {
			for _, o := range objs {
				id, err := ObjectID(o)
				if err != nil {
					return err
				}
				set[id] = true
				if ep == "core/object-types" {
					var t struct {
						App   string `json:"app_label"`
						Model string `json:"model"`
						API   string `json:"rest_api_endpoint"`
					}
					if err := json.Unmarshal(o, &t); err != nil {
						return err
					}
					if t.API != "" {
						types[t.App+"."+t.Model] = strings.Trim(strings.TrimPrefix(t.API, "/api/"), "/")
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ep, err)
		}
	}
	var out []Dangling
	for _, ep := range eps {
		err := src.Pages(ctx, ep, func(objs []json.RawMessage) error {
			for _, o := range objs {
				dec := json.NewDecoder(bytes.NewReader(o))
				dec.UseNumber()
				var v map[string]any
				if err := dec.Decode(&v); err != nil {
					return err
				}
				id, _ := ObjectID(o)
				check := func(path, target string, tid int) {
					if set, ok := ids[target]; !ok || !set[tid] {
						out = append(out, Dangling{ep, id, path, target, tid})
					}
				}
				walkRefs(v, ep, "", true, types, check)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ep, err)
		}
	}
	return out, nil
}

func walkRefs(v any, ep, path string, top bool, types map[string]string, check func(path, target string, id int)) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch v := v.(type) {
	case []any:
		for i, x := range v {
			walkRefs(x, ep, path+"["+strconv.Itoa(i)+"]", false, types, check)
		}
	case map[string]any:
		if u, ok := v["url"].(string); ok && !top {
			if target, _, _ := endpointOf(u); target != "" {
				if n, ok := v["id"].(json.Number); ok {
					id, _ := strconv.Atoi(string(n))
					check(path, target, id)
				}
			}
		}
		for k, x := range v {
			n, isNum := x.(json.Number)
			if !isNum {
				walkRefs(x, ep, join(k), false, types, check)
				continue
			}
			id, _ := strconv.Atoi(string(n))
			switch {
			case k == "cable" && ep == "dcim/cable-terminations":
				check(join(k), "dcim/cables", id)
			case k == "rear_port" || k == "front_port":
				target := "dcim/" + strings.ReplaceAll(k, "_", "-") + "s"
				if strings.HasSuffix(ep, "-templates") {
					target = "dcim/" + strings.ReplaceAll(k, "_", "-") + "-templates"
				}
				check(join(k), target, id)
			case strings.HasSuffix(k, "_id"):
				if t, ok := v[strings.TrimSuffix(k, "_id")+"_type"].(string); ok && isGenericType(t) {
					target, known := types[t]
					if !known {
						target = "(object type " + t + ")"
					}
					check(join(k), target, id)
				}
			}
		}
	}
}
