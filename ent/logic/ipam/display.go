package ipam

import "github.com/inventory/inventory/ent/schema/api"

// VRFDisplay is a VRF's display: "name (rd)" when a route distinguisher is
// set, else the name (NetBox's VRF.__str__). It lives with the ipam rules
// and imports only ent/schema/api, so the generated descriptor may call it.
func VRFDisplay(get api.Getter) string {
	name, _ := get("name").(string)
	if rd, _ := get("rd").(string); rd != "" {
		return name + " (" + rd + ")"
	}
	return name
}
