package ipam

import (
	"fmt"

	"github.com/inventory/inventory/ent/schema/api"
)

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

// IPRangeDisplay is an IP range's display: NetBox's IPRange.name
// (IPRangeName).
func IPRangeDisplay(get api.Getter) string {
	s, _ := get("start_address").(string)
	e, _ := get("end_address").(string)
	return IPRangeName(s, e)
}

// ASNDisplay is an ASN's display, NetBox's "AS<asn>", with the asdot
// notation beside 32-bit numbers: "AS4200000000 (64086.59904)".
func ASNDisplay(get api.Getter) string {
	n, _ := get("asn").(int)
	if n >= 1<<16 {
		return fmt.Sprintf("AS%d (%d.%d)", n, n>>16, n&0xffff)
	}
	return fmt.Sprintf("AS%d", n)
}

// VLANTranslationRuleDisplay is a rule's display, "<local> -> <remote>
// (<policy>)", the policy's name read from the rule's cached copy.
func VLANTranslationRuleDisplay(get api.Getter) string {
	return fmt.Sprintf("%v -> %v (%v)", get("local_vid"), get("remote_vid"), get("_policy_name"))
}
