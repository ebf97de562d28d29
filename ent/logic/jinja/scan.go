package jinja

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/tokens"
)

// blockTags open a block that a matching end tag closes ({% set x %} only
// without "=": scan tells the two forms apart).
var blockTags = map[string]bool{
	"if": true, "for": true, "filter": true, "with": true, "autoescape": true, "raw": true,
	"set": true, "macro": true, "call": true, "block": true, "trans": true,
}

// operators are the tokens counted against MaxOperators.
var operators = map[tokens.Type]bool{
	tokens.Addition: true, tokens.Subtraction: true, tokens.Multiply: true, tokens.Division: true,
	tokens.FloorDivision: true, tokens.Modulo: true, tokens.Power: true, tokens.Tilde: true,
	tokens.Equals: true, tokens.Ne: true, tokens.GreaterThan: true, tokens.GreaterThanOrEqual: true,
	tokens.LowerThan: true, tokens.LowerThanOrEqual: true, tokens.Not: true, tokens.Is: true,
	tokens.In: true, tokens.And: true, tokens.Or: true, tokens.Pipe: true, tokens.Dot: true,
	tokens.LeftBracket: true, tokens.LeftParenthesis: true,
}

// tagState is what scan knows of the tag it is in.
type tagState struct {
	block     bool   // {% … %} (or a line statement), not {{ … }}
	name      string // the block tag's name
	assign    bool   // an "=" outside brackets ({% set x = … %})
	nesting   int
	operators int
}

// scan reads src's tokens once, without parsing, and refuses what the
// sandbox forbids (the * and ** operators, names starting with "__",
// attributes starting with "_") and what would make the recursive parser
// or evaluator descend beyond the limits of limits.go. It returns the
// line of the last token read, where gonja's own lexer errors (reported
// at line 0) happened.
func scan(src string, c *config.Config) (lastLine int, err error) {
	s := tokens.LexAll(src, c)
	var prev tokens.Type
	lastLine = 1
	depth := 0 // open block tags
	var tag *tagState
	at := func(t *tokens.Token) string { return fmt.Sprintf("(Line: %d Col: %d)", t.Line, t.Col) }
	for !s.End() {
		t := s.Next()
		if t.Line > 0 {
			lastLine = t.Line
		}
		if err := sandboxed(t, prev); err != nil {
			return lastLine, err
		}
		if t.Type != tokens.Whitespace {
			prev = t.Type
		}
		switch t.Type {
		case tokens.BlockBegin, tokens.VariableBegin:
			tag = &tagState{block: t.Type == tokens.BlockBegin}
			continue
		case tokens.BlockEnd, tokens.VariableEnd:
			if tag != nil && tag.block {
				switch {
				case strings.HasPrefix(tag.name, "end"):
					depth = max(depth-1, 0)
				case blockTags[tag.name] && (tag.name != "set" || !tag.assign):
					if depth++; depth > MaxBlockDepth {
						return lastLine, fmt.Errorf("blocks are nested too deeply: at most %d levels are allowed %s", MaxBlockDepth, at(t))
					}
				}
			}
			tag = nil
			continue
		}
		if tag == nil || t.Type == tokens.Whitespace {
			continue
		}
		if tag.block && tag.name == "" && t.Type == tokens.Name {
			tag.name = t.Val
			continue
		}
		if operators[t.Type] {
			if tag.operators++; tag.operators > MaxOperators {
				return lastLine, fmt.Errorf("too many operators in one tag: at most %d are allowed %s", MaxOperators, at(t))
			}
		}
		switch t.Type {
		case tokens.LeftParenthesis, tokens.LeftBracket, tokens.LeftBrace:
			if tag.nesting++; tag.nesting > MaxNesting {
				return lastLine, fmt.Errorf("expression nested too deeply: at most %d levels of (), [] and {} are allowed %s", MaxNesting, at(t))
			}
		case tokens.RightParenthesis, tokens.RightBracket, tokens.RightBrace:
			tag.nesting = max(tag.nesting-1, 0)
		case tokens.Assign:
			tag.assign = tag.assign || tag.nesting == 0
		}
	}
	return lastLine, nil
}

// sandboxed refuses the tokens the sandbox forbids. Jinja's sandbox
// refuses names starting with an underscore as attributes; dunder names
// (__class__, __globals__, ...) are the classic escape. They reach nothing
// here (the data is plain JSON), but a template naming them is refused so
// that it fails when saved, not silently at delivery.
func sandboxed(t *tokens.Token, prev tokens.Type) error {
	if t.Type == tokens.Multiply || t.Type == tokens.Power {
		return errors.New("the * and ** operators are not allowed")
	}
	name, bad := strings.Trim(t.Val, `"'`), false
	switch {
	case t.Type == tokens.Name && prev == tokens.Dot, t.Type == tokens.String && prev == tokens.LeftBracket:
		bad = strings.HasPrefix(name, "_")
	case t.Type == tokens.Name:
		bad = strings.HasPrefix(name, "__")
	}
	if bad {
		return fmt.Errorf("access to %q is not allowed (Line: %d Col: %d)", name, t.Line, t.Col)
	}
	return nil
}
