package jinja

// The limits of this file bound what a template may be and what one render
// may build. gonja parses and evaluates recursively, and Go cannot recover
// a goroutine's stack overflow: a template of 200 KB of nested parentheses
// ended the whole process (issue 32), and so did a namespace holding itself
// ({% set ns.x = ns %}{{ ns }}). NetBox's Jinja2 stops at Python's
// recursion limit instead; nobody writes templates anywhere near these.
//
// The template limits are checked before parsing, by an iterative scan of
// gonja's own tokens (scan), so a too-deep template is refused when it is
// saved (Check, CheckOptions) and again by every render (a template stored
// before the limits existed): a clear error naming the line, never a
// parse.
const (
	// MaxNesting is the deepest nesting of (), [] and {} within one tag
	// ({{ … }} or {% … %}): the parser descends once per level.
	MaxNesting = 100

	// MaxBlockDepth is the deepest nesting of block tags ({% if %},
	// {% for %}, {% filter %}, {% with %}, {% set x %}…{% endset %},
	// {% autoescape %}, {% raw %}); the parser and the renderer descend
	// once per level.
	MaxBlockDepth = 100

	// MaxOperators is the largest number of operators in one tag:
	// arithmetic, comparison, not/and/or/in, filters (|), tests (is),
	// attribute and item access (. and [) and calls or groups ((). The
	// parser builds their chains iteratively, but the evaluator walks them
	// recursively.
	MaxOperators = 1000

	// MaxDataDepth is the deepest nesting of lists, dicts and namespaces a
	// render may keep in a variable ({% set %}, {% with %}, list.append);
	// printing and comparing walk values recursively. Data given to a
	// template is never deeper than the JSON limits of the API allow
	// (resource.MaxJSONDepth).
	MaxDataDepth = 1000
)

// Beyond depth, a value a render keeps ({% set %}, {% with %},
// list.append) may be at most Limits.MaxOutput bytes as printed (strings
// count their bytes, every other value one; data given to the template
// counts once however large), so that doubling a string or a list in a
// loop ends with an error instead of the process's memory. A value stored
// into a namespace may not contain a namespace: namespaces are the only
// values a template can change in place, so none can ever contain itself
// or grow a chain deeper than one step per write.
