package extras

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/inventory/inventory/ent/logic/jinja"
	"github.com/inventory/inventory/ent/logic/pyrepr"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// The render endpoints of config templates: POST config-templates/<id>/
// render/ (NetBox's ConfigTemplateViewSet.render) and POST devices/<id>/
// render-config/ and virtual-machines/<id>/render-config/ (NetBox's
// RenderConfigMixin). Templates see plain data only: the body's keys, the
// object's config_context as its serializer renders it, and the object's
// full serialized representation under NetBox's name for it ("device",
// "virtualmachine"), never live objects.

// RenderConfigTemplate renders the template with the request body as its
// context.
func RenderConfigTemplate(r api.Request) (any, error) {
	get := r.Object()
	id, _ := rawsql.IntOf(get("id"))
	data, err := bodyObject(r.Body())
	if err != nil {
		return nil, err
	}
	return renderTemplate(r, id, rawsql.StringOf(get("template_code")), get("environment_params"), data)
}

// RenderDeviceConfig is a device's render-config.
func RenderDeviceConfig(r api.Request) (any, error) {
	return renderObjectConfig(r, "dcim.device", "device")
}

// RenderVirtualMachineConfig is a virtual machine's render-config.
func RenderVirtualMachineConfig(r api.Request) (any, error) {
	return renderObjectConfig(r, "virtualization.virtualmachine", "virtualmachine")
}

// renderObjectConfig resolves the template (config_template_id in the
// body, else the object's, its role's, its platform's: NetBox's
// get_config_template()) and renders it with the object's config context,
// the body's other keys on top, and the object under name.
func renderObjectConfig(r api.Request, contentType, name string) (any, error) {
	get := r.Object()
	id, _ := rawsql.IntOf(get("id"))
	body, err := bodyObject(r.Body())
	if err != nil {
		return nil, err
	}
	var tid int
	if raw, ok := body["config_template_id"]; ok && truthy(raw) {
		n, ok := templateID(raw)
		if ok {
			visible, err := r.Nested("extras.configtemplate", []int{n})
			if err != nil {
				return nil, err
			}
			ok = visible[n] != nil
		}
		if !ok {
			return nil, &api.BodyError{Status: http.StatusBadRequest,
				Body: map[string]string{"error": fmt.Sprintf("Config template with ID %s not found.", pyrepr.Str(raw))}}
		}
		tid = n
	} else {
		if tid, err = assignedTemplate(r, get); err != nil {
			return nil, err
		}
		if tid == 0 {
			return nil, &api.BodyError{Status: http.StatusBadRequest,
				Body: map[string]string{"error": fmt.Sprintf("No config template found for this %s.", name)}}
		}
	}
	code, params, found, err := loadTemplate(r, tid)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, &api.BodyError{Status: http.StatusBadRequest,
			Body: map[string]string{"error": fmt.Sprintf("Config template with ID %d not found.", tid)}}
	}
	raw, err := r.Full(contentType, id)
	if err != nil {
		return nil, err
	}
	obj, err := jinja.Plain(raw)
	if err != nil {
		return nil, err
	}
	data := map[string]any{}
	if m, ok := obj.(map[string]any); ok {
		if cc, ok := m["config_context"].(map[string]any); ok {
			for k, v := range cc {
				data[k] = v
			}
		}
	}
	for k, v := range body {
		if k != "config_template_id" {
			data[k] = v
		}
	}
	data[name] = obj
	return renderTemplate(r, tid, code, params, data)
}

// renderTemplate renders and answers NetBox's RenderedConfigSerializer
// ({configtemplate, content}) or the bare content as text.
func renderTemplate(r api.Request, tid int, code string, params any, data map[string]any) (any, error) {
	out, err := RenderStored(code, params, true, data, RenderLimits)
	if err != nil {
		return nil, err
	}
	nested, err := r.Related("extras.configtemplate", tid)
	if err != nil {
		return nil, err
	}
	return api.Negotiated{JSON: map[string]any{"configtemplate": nested, "content": out}, Text: out}, nil
}

// assignedTemplate is NetBox's get_config_template(): the object's own
// template, else its role's, else its platform's (0: none).
func assignedTemplate(r api.Request, get api.Getter) (int, error) {
	if id, ok := rawsql.IntOf(get("config_template")); ok {
		return id, nil
	}
	for _, via := range []struct{ field, table string }{{"role", "dcim_devicerole"}, {"platform", "dcim_platform"}} {
		fk, ok := rawsql.IntOf(get(via.field))
		if !ok {
			continue
		}
		a := &rawsql.Args{PG: r.Postgres()}
		rows, err := r.SQL(`SELECT config_template_id FROM `+via.table+` WHERE id = `+a.P(fk), a.List...)
		if err != nil {
			return 0, err
		}
		var tid *int
		if rows.Next() {
			err = rows.Scan(&tid)
		}
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return 0, err
		}
		if tid != nil {
			return *tid, nil
		}
	}
	return 0, nil
}

// loadTemplate reads a config template's code and environment_params.
func loadTemplate(r api.Request, id int) (code string, params any, found bool, err error) {
	a := &rawsql.Args{PG: r.Postgres()}
	rows, err := r.SQL(`SELECT template_code, environment_params FROM extras_configtemplate WHERE id = `+a.P(id), a.List...)
	if err != nil {
		return "", nil, false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return "", nil, false, rows.Err()
	}
	var c, p any
	if err := rows.Scan(&c, &p); err != nil {
		return "", nil, false, err
	}
	return rawsql.StringOf(c), rawsql.Normal(p), true, rows.Err()
}

// bodyObject decodes the body as template data: a JSON object (an empty
// body is an empty one), anything else DRF's 400.
func bodyObject(raw []byte) (map[string]any, error) {
	if len(raw) == 0 {
		return map[string]any{}, nil
	}
	v, err := jinja.Plain(raw)
	if err != nil {
		return nil, &api.FieldError{Field: "non_field_errors", Message: "Invalid JSON."}
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &api.FieldError{Field: "non_field_errors",
			Message: fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", pyrepr.TypeOfJSON(raw))}
	}
	return m, nil
}

// truthy is Python's truth of a JSON value (NetBox tests
// request.data.get('config_template_id') for truth).
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// templateID reads a primary key as Django's pk lookup accepts it: an
// integer, or a string of one.
func templateID(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, x > 0
	case float64:
		return int(x), x == float64(int(x)) && x > 0
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(x))
		return n, err == nil && n > 0
	}
	return 0, false
}
