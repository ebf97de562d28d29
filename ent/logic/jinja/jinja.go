package jinja

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/nikolalohinski/gonja/v2/builtins"
	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/loaders"
	"github.com/nikolalohinski/gonja/v2/parser"
	"github.com/nikolalohinski/gonja/v2/utils"
)

// Limits bound one render (see also the fixed limits of limits.go).
type Limits struct {
	MaxOutput     int           // bytes of output, and of any value the render keeps (set, with, append)
	Timeout       time.Duration // wall time
	MaxIterations int           // total range()/lipsum() elements
	MaxIntArg     int           // largest integer argument to a filter
}

// DefaultLimits are generous for webhook payloads.
var DefaultLimits = Limits{MaxOutput: 1 << 20, Timeout: 2 * time.Second, MaxIterations: 100000, MaxIntArg: 10000}

// removed control structures (see the package comment); trans needs an
// i18n extension NetBox's environment does not load.
var removed = []string{"include", "import", "from", "extends", "block", "macro", "call", "trans"}

// The environments of Check: parsing needs no guard.
var (
	plainEnv  = newEnv(false, nil)
	headerEnv = newEnv(true, nil)
)

// newEnv builds an environment: gonja's filters (integer arguments
// capped), tests and methods, its control structures minus those removed,
// with this package's set, with and filter, and loops that watch g (nil
// when only parsing).
func newEnv(headers bool, g *guard) *exec.Environment {
	fm := map[string]exec.FilterFunction{}
	exec.NewFilterSet(fm).Update(builtins.Filters)
	for name, fn := range fm {
		fm[name] = capInts(fn)
		if g != nil && flatteners[name] {
			fm[name] = g.flattening(fm[name])
		}
	}
	if g != nil {
		fm[printFilter] = g.printFilterFunc
	}
	if headers {
		fm["header_safe"] = func(_ *exec.Evaluator, in *exec.Value, _ *exec.VarArgs) *exec.Value {
			return exec.AsValue(HeaderSafe(in.String()))
		}
	}
	cm := map[string]parser.ControlStructureParser{}
	exec.NewControlStructureSet(cm).Update(builtins.ControlStructures)
	for _, name := range removed {
		delete(cm, name)
	}
	cm["for"] = g.forParser(cm["for"])
	cm["set"], cm["with"], cm["filter"] = g.setParser, g.withParser, g.filterParser
	ctx := exec.EmptyContext().Update(builtins.GlobalFunctions).Update(builtins.GlobalVariables)
	ctx.Set("namespace", g.namespaceFunc)
	methods := builtins.Methods
	if g != nil {
		methods = g.methods()
	}
	return &exec.Environment{
		Context:           ctx,
		Filters:           exec.NewFilterSet(fm),
		Tests:             builtins.Tests,
		ControlStructures: exec.NewControlStructureSet(cm),
		Methods:           methods,
	}
}

// capInts refuses huge integer arguments (padding widths and the like).
func capInts(fn exec.FilterFunction) exec.FilterFunction {
	return func(e *exec.Evaluator, in *exec.Value, params *exec.VarArgs) *exec.Value {
		if params != nil {
			max := DefaultLimits.MaxIntArg
			for _, a := range params.Args {
				if a.IsInteger() && (a.Integer() > max || a.Integer() < -max) {
					return exec.AsValue(fmt.Errorf("integer argument %d exceeds the limit of %d", a.Integer(), max))
				}
			}
			for _, a := range params.KwArgs {
				if a.IsInteger() && (a.Integer() > max || a.Integer() < -max) {
					return exec.AsValue(fmt.Errorf("integer argument %d exceeds the limit of %d", a.Integer(), max))
				}
			}
		}
		return fn(e, in, params)
	}
}

// refusingLoader serves the one template it was made with and refuses
// every other name, so include/import/extends can never read files.
type refusingLoader struct {
	id  string
	src []byte
}

func (l *refusingLoader) Read(id string) (io.Reader, error) {
	if id != l.id {
		return nil, fmt.Errorf("loading templates is not allowed: %q", id)
	}
	return bytes.NewReader(l.src), nil
}

func (l *refusingLoader) Resolve(id string) (string, error) {
	if id != l.id {
		return "", fmt.Errorf("loading templates is not allowed: %q", id)
	}
	return id, nil
}

func (l *refusingLoader) Inherit(string) (loaders.Loader, error) { return l, nil }

var _ loaders.Loader = (*refusingLoader)(nil)

const rootID = "template"

func cfg() *config.Config {
	c := config.New()
	c.KeepTrailingNewline = true
	return c
}

// Options are the parser settings a stored template may choose (NetBox's
// environment_params, as far as they change what a template means). The
// zero value is Jinja's default environment; webhooks use their own
// settings (a kept trailing newline).
type Options struct {
	TrimBlocks, LstripBlocks, KeepTrailingNewline bool
	// AutoEscape HTML-escapes every printed value (an export template
	// producing HTML).
	AutoEscape bool
	// StrictUndefined makes a missing variable or attribute an error
	// (jinja2.StrictUndefined) instead of an empty value.
	StrictUndefined bool
	// Delimiters and prefixes; empty means Jinja's default.
	BlockStart, BlockEnd, VariableStart, VariableEnd, CommentStart, CommentEnd string
	LineStatementPrefix, LineCommentPrefix, NewlineSequence                    string
}

func (o Options) config() *config.Config {
	c := config.New()
	c.TrimBlocks, c.LeftStripBlocks, c.KeepTrailingNewline = o.TrimBlocks, o.LstripBlocks, o.KeepTrailingNewline
	c.StrictUndefined, c.AutoEscape = o.StrictUndefined, o.AutoEscape
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&c.BlockStartString, o.BlockStart)
	set(&c.BlockEndString, o.BlockEnd)
	set(&c.VariableStartString, o.VariableStart)
	set(&c.VariableEndString, o.VariableEnd)
	set(&c.CommentStartString, o.CommentStart)
	set(&c.CommentEndString, o.CommentEnd)
	set(&c.NewlineSequence, o.NewlineSequence)
	c.LineStatementPrefix, c.LineCommentPrefix = o.LineStatementPrefix, o.LineCommentPrefix
	return c
}

// compile scans src (scan: the sandbox's refusals and the limits of
// limits.go, before the recursive parser sees it) and parses it in env
// with the parser settings c.
func compile(src string, env *exec.Environment, c *config.Config) (*exec.Template, error) {
	lastLine, err := scan(src, c)
	if err != nil {
		return nil, err
	}
	t, err := exec.NewTemplate(rootID, c, &refusingLoader{id: rootID, src: []byte(src)}, env)
	if err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			err = inner
		}
		// gonja reports lexer errors (an unclosed {{, a quote) at line 0;
		// the line of the last token read is where the template broke.
		if msg := err.Error(); strings.Contains(msg, "(Line: 0 Col: 0") {
			return nil, errors.New(shorten(strings.Replace(msg, "(Line: 0 Col: 0", fmt.Sprintf("(Line: %d", lastLine), 1)))
		}
		return nil, errors.New(shorten(err.Error()))
	}
	return t, nil
}

// IsTemplate says whether s contains Jinja markup ({{, {% or {#).
func IsTemplate(s string) bool {
	return strings.Contains(s, "{{") || strings.Contains(s, "{%") || strings.Contains(s, "{#")
}

// Check parses src (headers: with the header_safe filter available) and
// returns the parser's error, if any.
func Check(src string, headers bool) error {
	env := plainEnv
	if headers {
		env = headerEnv
	}
	_, err := compile(src, env, cfg())
	return err
}

// CheckOptions parses src as a stored template with Options o (no
// header_safe) and returns the parser's error, if any.
func CheckOptions(src string, o Options) error {
	_, err := compile(src, plainEnv, o.config())
	return err
}

// HeaderSafe removes C0 control characters and DEL (so CR and LF cannot
// inject headers).
func HeaderSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// ErrOutputTooLarge is returned when a render exceeds Limits.MaxOutput.
var ErrOutputTooLarge = errors.New("template output exceeds the size limit")

// ErrTimeout is returned when a render exceeds Limits.Timeout.
var ErrTimeout = errors.New("template rendering exceeded the time limit")

type limitedWriter struct {
	buf     bytes.Buffer
	max     int
	stopped *atomic.Bool
}

func (w *limitedWriter) Write(p []byte) (int, error) {
	if w.stopped.Load() {
		return 0, ErrTimeout
	}
	if w.buf.Len()+len(p) > w.max {
		return 0, ErrOutputTooLarge
	}
	return w.buf.Write(p)
}

// Render renders src with data (plain JSON-shaped values; see Plain).
// headers makes the header_safe filter available.
func Render(src string, data map[string]any, headers bool, lim Limits) (string, error) {
	return render(src, data, headers, cfg(), lim)
}

// RenderOptions renders a stored template (a config or export template)
// with Options o; data as for Render.
func RenderOptions(src string, data map[string]any, o Options, lim Limits) (string, error) {
	return render(src, data, false, o.config(), lim)
}

// testHookRender, when set by a test, sees the guard of every render.
var testHookRender func(*guard)

func render(src string, data map[string]any, headers bool, c *config.Config, lim Limits) (string, error) {
	g := newGuard(data, lim)
	t, err := compile(src, newEnv(headers, g), c)
	if err != nil {
		return "", err
	}
	guardOutputs(t.Root())
	stopped := &g.stopped
	budget := int64(lim.MaxIterations)
	take := func(n int) error {
		if stopped.Load() {
			return ErrTimeout
		}
		if n < 0 {
			n = 0
		}
		if atomic.AddInt64(&budget, -int64(n)) < 0 {
			return fmt.Errorf("range exceeds the limit of %d iterations per template", lim.MaxIterations)
		}
		return nil
	}
	vars := map[string]any{}
	for k, v := range data {
		vars[k] = v
	}
	vars["range"] = func(_ *exec.Evaluator, params *exec.VarArgs) ([]int, error) {
		start, stop, step := 0, 0, 1
		ints := make([]int, len(params.Args))
		for i, a := range params.Args {
			if !a.IsInteger() {
				return nil, errors.New("expected signature is [start, ]stop[, step] where all arguments are integers")
			}
			ints[i] = a.Integer()
		}
		switch len(ints) {
		case 1:
			stop = ints[0]
		case 2:
			start, stop = ints[0], ints[1]
		case 3:
			start, stop, step = ints[0], ints[1], ints[2]
		default:
			return nil, errors.New("expected signature is [start, ]stop[, step] where all arguments are integers")
		}
		if step == 0 {
			return nil, errors.New("step cannot be 0")
		}
		n := 0
		if step > 0 && stop > start {
			n = (stop - start + step - 1) / step
		} else if step < 0 && start > stop {
			n = (start - stop - step - 1) / -step
		}
		if err := take(n); err != nil {
			return nil, err
		}
		out := make([]int, 0, n)
		for i, v := 0, start; i < n; i, v = i+1, v+step {
			out = append(out, v)
		}
		return out, nil
	}
	vars["lipsum"] = func(_ *exec.Evaluator, params *exec.VarArgs) (string, error) {
		n, html, lo, hi := 5, true, 20, 100
		if err := params.Take(
			exec.KeywordArgument("n", exec.AsValue(5), exec.IntArgument(&n)),
			exec.KeywordArgument("html", exec.AsValue(true), exec.BoolArgument(&html)),
			exec.KeywordArgument("min", exec.AsValue(20), exec.IntArgument(&lo)),
			exec.KeywordArgument("max", exec.AsValue(100), exec.IntArgument(&hi)),
		); err != nil {
			return "", err
		}
		if err := take(n * hi); err != nil {
			return "", err
		}
		return utils.Lipsum(n, html, lo, hi), nil
	}
	w := &limitedWriter{max: lim.MaxOutput, stopped: stopped}
	done := make(chan error, 1)
	go func() {
		defer close(g.finished)
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("template panicked: %v", p)
			}
		}()
		done <- t.Execute(w, exec.NewContext(vars))
	}()
	if testHookRender != nil {
		testHookRender(g)
	}
	timer := time.NewTimer(lim.Timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			if errors.Is(err, ErrOutputTooLarge) {
				return "", ErrOutputTooLarge
			}
			if g.printErr != nil {
				return "", g.printErr
			}
			return "", cleanError(err)
		}
		return w.buf.String(), nil
	case <-timer.C:
		stopped.Store(true)
		return "", ErrTimeout
	}
}

// cleanError drops gonja's wrapping prefix and shortens the message.
func cleanError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "unable to execute template: ")
	return errors.New(shorten(msg))
}

// maxMessage is the longest error message passed on: gonja repeats the
// failing expression at every level of its wrapping, which makes the
// message of a long expression grow with the square of its length.
const maxMessage = 1000

// shorten keeps the first and the last maxMessage/2 bytes of msg (at rune
// boundaries): gonja wraps the cause, at the end, in the context of every
// enclosing tag.
func shorten(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	head, tail := maxMessage/2, len(msg)-maxMessage/2
	for head > 0 && !utf8.RuneStart(msg[head]) {
		head--
	}
	for tail < len(msg) && !utf8.RuneStart(msg[tail]) {
		tail++
	}
	return msg[:head] + " … " + msg[tail:]
}

// Plain decodes JSON into template data: objects, lists, strings,
// booleans, null, and numbers as int when integral (so {{ data.id }}
// prints 4, not 4.0) or float64.
func Plain(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return plain(v), nil
}

func plain(v any) any {
	switch x := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			if n, err := x.Int64(); err == nil {
				return int(n)
			}
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = plain(x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = plain(x[k])
		}
		return x
	}
	return v
}
