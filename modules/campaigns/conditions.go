package campaigns

import (
	"fmt"
	"slices"
	"strings"
)

// Condition operators.
const (
	OpEq        = "eq"
	OpNe        = "ne"
	OpIn        = "in"
	OpNotIn     = "not_in"
	OpGt        = "gt"
	OpGte       = "gte"
	OpLt        = "lt"
	OpLte       = "lte"
	OpExists    = "exists"
	OpNotExists = "not_exists"
)

// MatchAll tells whether every condition holds: profile conditions read fields, answer
// conditions read answers (question id -> answer VALUE as ARCHITECTURE.md "Answers" has it).
func MatchAll(conds []Condition, fields map[string]any, answers map[string]any) bool {
	for _, c := range conds {
		if !c.Holds(fields, answers) {
			return false
		}
	}
	return true
}

// Holds evaluates one condition. A choice answer (option id, or a list of them) matches
// eq/in when any chosen id is among the values.
func (c Condition) Holds(fields map[string]any, answers map[string]any) bool {
	var v any
	var present bool
	if c.Question != "" {
		v, present = answers[c.Question]
	} else {
		v, present = fields[c.Field]
	}
	present = present && v != nil
	switch c.Op {
	case OpExists:
		return present
	case OpNotExists:
		return !present
	case OpNe:
		return !present || !anyEqual(v, []any{c.Value})
	case OpNotIn:
		return !present || !anyEqual(v, c.Values)
	}
	if !present {
		return false
	}
	switch c.Op {
	case OpEq:
		return anyEqual(v, []any{c.Value})
	case OpIn:
		return anyEqual(v, c.Values)
	case OpGt, OpGte, OpLt, OpLte:
		a, ok1 := number(v)
		b, ok2 := number(c.Value)
		if !ok1 || !ok2 {
			return false
		}
		switch c.Op {
		case OpGt:
			return a > b
		case OpGte:
			return a >= b
		case OpLt:
			return a < b
		}
		return a <= b
	}
	return false
}

// anyEqual: v (a scalar, or a list of chosen ids) equals any of the wanted values.
func anyEqual(v any, wanted []any) bool {
	if list, ok := v.([]any); ok {
		return slices.ContainsFunc(list, func(x any) bool { return anyEqual(x, wanted) })
	}
	if list, ok := v.([]string); ok {
		return slices.ContainsFunc(list, func(x string) bool { return anyEqual(x, wanted) })
	}
	for _, w := range wanted {
		if scalarEqual(v, w) {
			return true
		}
	}
	return false
}

func scalarEqual(a, b any) bool {
	if x, ok := number(a); ok {
		if y, ok := number(b); ok {
			return x == y
		}
	}
	if x, ok := a.(bool); ok {
		y, ok := b.(bool)
		return ok && x == y
	}
	return strings.EqualFold(fmt.Sprint(a), fmt.Sprint(b))
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}
