package dcim

// CabledTypes are the objects a cable may terminate on (NetBox's
// CABLE_TERMINATION_MODELS), in the order NetBox lists them.
var CabledTypes = []string{"circuits.circuittermination", "dcim.consoleport", "dcim.consoleserverport",
	"dcim.frontport", "dcim.interface", "dcim.powerfeed", "dcim.poweroutlet", "dcim.powerport", "dcim.rearport"}

// compatibleTypes is NetBox's COMPATIBLE_TERMINATION_TYPES: the types the
// far end of a cable may have, by the near end's model name.
var compatibleTypes = map[string][]string{
	"consoleport":        {"consoleserverport", "frontport", "rearport"},
	"consoleserverport":  {"consoleport", "frontport", "rearport"},
	"powerport":          {"poweroutlet", "powerfeed"},
	"poweroutlet":        {"powerport"},
	"interface":          {"interface", "circuittermination", "frontport", "rearport"},
	"frontport":          {"consoleport", "consoleserverport", "interface", "frontport", "rearport", "circuittermination"},
	"rearport":           {"consoleport", "consoleserverport", "interface", "frontport", "rearport", "circuittermination"},
	"circuittermination": {"interface", "frontport", "rearport", "circuittermination"},
	"powerfeed":          {"powerport"},
}
