package extras

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"entgo.io/ent"

	"github.com/inventory/inventory/ent/logic/jinja"
	"github.com/inventory/inventory/ent/logic/rawsql"
	"github.com/inventory/inventory/ent/schema/api"
)

// Config and export templates (NetBox's RenderTemplateMixin): their
// environment_params, the save-time checks, and the limits of a render.
// They render with the sandboxed engine the webhooks use (ent/logic/jinja):
// plain data only, no loader, bounded time, output and iterations.

// RenderLimits bound one render of a config template (render and
// render-config).
var RenderLimits = jinja.DefaultLimits

// ExportLimits bound one render of an export template: a whole filtered
// list goes in, so the output may be larger and take longer than a
// device's configuration.
var ExportLimits = jinja.Limits{MaxOutput: 32 << 20, Timeout: 10 * time.Second,
	MaxIterations: jinja.DefaultLimits.MaxIterations, MaxIntArg: jinja.DefaultLimits.MaxIntArg}

// DefaultMIMEType is NetBox's DEFAULT_MIME_TYPE, the content type of an
// export without a mime_type.
const DefaultMIMEType = "text/plain; charset=utf-8"

// undefinedValues are NetBox's allowed values of the "undefined"
// environment parameter. DebugUndefined (print the expression back) has
// no counterpart in the engine and is refused rather than rendered
// differently.
var undefinedValues = []string{"jinja2.ChainableUndefined", "jinja2.DebugUndefined", "jinja2.StrictUndefined", "jinja2.Undefined"}

// envParams are NetBox's JINJA_ENV_PARAMS_ALLOWED with the type each
// takes here: "bool", "string", or "" for parameters that change nothing
// a template renders (caching, async, optimisation), accepted as NetBox
// accepts them.
var envParams = map[string]string{
	"auto_reload": "", "cache_size": "", "enable_async": "", "optimized": "",
	"autoescape": "bool", "keep_trailing_newline": "bool", "lstrip_blocks": "bool", "trim_blocks": "bool",
	"block_start_string": "string", "block_end_string": "string", "comment_start_string": "string",
	"comment_end_string": "string", "line_comment_prefix": "string", "line_statement_prefix": "string",
	"newline_sequence": "string", "variable_start_string": "string", "variable_end_string": "string",
	"undefined": "undefined",
}

// EnvironmentOptions checks environment_params as NetBox's
// RenderTemplateMixin.clean() does (only allowed keys, "finalize" refused,
// "undefined" one of its names) and, beyond NetBox, the type of each value
// (NetBox's Jinja fails at render time on a wrong one), and returns the
// engine's options. configTemplate forces autoescape off, as NetBox's
// ConfigTemplate does.
func EnvironmentOptions(params map[string]any, configTemplate bool) (jinja.Options, error) {
	fe := func(msg string) error { return &api.FieldError{Field: "environment_params", Message: msg} }
	var o jinja.Options
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		v := params[key]
		if key == "finalize" {
			return o, fe(fmt.Sprintf("The %q parameter is deprecated and may not be set on new or modified templates.", key))
		}
		kind, ok := envParams[key]
		if !ok {
			return o, fe(fmt.Sprintf("%q is not a permitted Jinja2 environment parameter.", key))
		}
		switch kind {
		case "bool":
			b, ok := v.(bool)
			if !ok {
				return o, fe(fmt.Sprintf("%q must be true or false.", key))
			}
			switch key {
			case "autoescape":
				o.AutoEscape = b && !configTemplate
			case "keep_trailing_newline":
				o.KeepTrailingNewline = b
			case "lstrip_blocks":
				o.LstripBlocks = b
			case "trim_blocks":
				o.TrimBlocks = b
			}
		case "string":
			s, ok := v.(string)
			if !ok {
				return o, fe(fmt.Sprintf("%q must be a string.", key))
			}
			if s == "" && !strings.HasPrefix(key, "line_") {
				return o, fe(fmt.Sprintf("%q may not be empty.", key))
			}
			switch key {
			case "block_start_string":
				o.BlockStart = s
			case "block_end_string":
				o.BlockEnd = s
			case "comment_start_string":
				o.CommentStart = s
			case "comment_end_string":
				o.CommentEnd = s
			case "variable_start_string":
				o.VariableStart = s
			case "variable_end_string":
				o.VariableEnd = s
			case "line_comment_prefix":
				o.LineCommentPrefix = s
			case "line_statement_prefix":
				o.LineStatementPrefix = s
			case "newline_sequence":
				if s != "\n" && s != "\r\n" && s != "\r" {
					return o, fe(`"newline_sequence" must be one of "\n", "\r\n" or "\r".`)
				}
				o.NewlineSequence = s
			}
		case "undefined":
			s, _ := v.(string)
			found := false
			for _, u := range undefinedValues {
				found = found || u == s
			}
			if !found {
				return o, fe(fmt.Sprintf("Invalid value %q for parameter %q. Allowed values are: %s",
					fmt.Sprint(v), key, strings.Join(undefinedValues, ", ")))
			}
			if s == "jinja2.DebugUndefined" {
				return o, fe(fmt.Sprintf("%q is not supported by this service; use jinja2.Undefined, jinja2.ChainableUndefined or jinja2.StrictUndefined.", s))
			}
			o.StrictUndefined = s == "jinja2.StrictUndefined"
		}
	}
	return o, nil
}

// TemplateHooks are the hooks of extras.ConfigTemplate (configTemplate)
// and extras.ExportTemplate: the row as it will be after the write has
// acceptable environment_params and a template_code that parses with
// them (NetBox checks the syntax only when rendering: a broken template
// is refused here when saved, naming template_code), and an export
// template is not named "table" (NetBox's ExportTemplate.clean()).
func TemplateHooks(table string, configTemplate bool) []ent.Hook {
	cols := []string{"name", "template_code", "environment_params"}
	check := rawsql.RowHook(table, cols, func(_ context.Context, _ rawsql.Mutation, _ int, row, _ map[string]any) error {
		if !configTemplate && strings.EqualFold(rawsql.StringOf(row["name"]), "table") {
			return &api.FieldError{Field: "name", Message: fmt.Sprintf("%q is a reserved name. Please choose a different name.", rawsql.StringOf(row["name"]))}
		}
		params, err := decodeObject(row["environment_params"])
		if err != nil {
			return &api.FieldError{Field: "environment_params", Message: "Value must be a dictionary."}
		}
		o, err := EnvironmentOptions(params, configTemplate)
		if err != nil {
			return err
		}
		if err := jinja.CheckOptions(rawsql.StringOf(row["template_code"]), o); err != nil {
			return &api.FieldError{Field: "template_code", Message: "Invalid template: " + err.Error()}
		}
		return nil
	})
	return []ent.Hook{func(next ent.Mutator) ent.Mutator {
		guarded := check(next)
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			if m.Op().Is(ent.OpCreate) || rawsql.Touched(m, cols...) {
				return guarded.Mutate(ctx, m)
			}
			return next.Mutate(ctx, m)
		})
	}}
}

// RenderStored renders a stored template (its code and environment_params
// as the row holds them) with data, within lim. A failure is the
// template's fault, so it is a 400 naming template_code: the client can
// fix it; NetBox answers 500 with the exception's text.
func RenderStored(code string, params any, configTemplate bool, data map[string]any, lim jinja.Limits) (string, error) {
	p, err := decodeObject(params)
	if err != nil {
		return "", &api.FieldError{Field: "environment_params", Message: "Value must be a dictionary."}
	}
	o, err := EnvironmentOptions(p, configTemplate)
	if err != nil {
		return "", err
	}
	out, err := jinja.RenderOptions(code, data, o, lim)
	if err != nil {
		return "", &api.FieldError{Field: "template_code", Message: "Rendering failed: " + err.Error()}
	}
	// NetBox replaces CRLF line ends in the output.
	return strings.ReplaceAll(out, "\r\n", "\n"), nil
}
