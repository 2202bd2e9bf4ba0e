package param

import (
	"strconv"

	"github.com/flakegate/flakegate/core"
)

// A schema's bind gives, by key, a pointer to where each field's value is
// stored in the input; the types it may point to, and how each is written
// as text and set from a read Value, are these:
//
//	*float64      Exact; a Fraction, Seconds or other number
//	**float64     Exact, "" for nil; an optional number (nil when absent)
//	*int64, *int  decimal; an Integer
//	*bool         "true" or "false"; a Bool
//	*string       as given, "" when absent; an Enum, Date or Text
//	*core.Count   CountText; a Count
//	**core.Count  CountText, "" for nil; an optional Count
//	*[]float64    ListText; Fractions
//	*[]int        IntegersText; Integers
//
// A schema whose input stores a field otherwise writes text and set itself.

// textOf is in's canonical text by key.
func (s *Schema[T]) textOf(in T) map[string]string {
	if s.text != nil {
		return s.text(in)
	}
	bound := s.bind(&in)
	t := make(map[string]string, len(bound))
	for key, p := range bound {
		t[key] = boundText(p)
	}
	return t
}

// setKey stores v (nil for an absent optional input) as field key of in.
func (s *Schema[T]) setKey(in *T, key string, v Value) {
	if s.set != nil {
		s.set(in, key, v)
		return
	}
	if p, ok := s.bind(in)[key]; ok {
		setBound(p, v)
	}
}

func boundText(p any) string {
	switch p := p.(type) {
	case *float64:
		return Exact(*p)
	case **float64:
		return optText(*p)
	case *int64:
		return strconv.FormatInt(*p, 10)
	case *int:
		return strconv.Itoa(*p)
	case *bool:
		return strconv.FormatBool(*p)
	case *string:
		return *p
	case *core.Count:
		return CountText(*p)
	case **core.Count:
		if *p == nil {
			return ""
		}
		return CountText(**p)
	case *[]float64:
		return ListText(*p)
	case *[]int:
		return IntegersText(*p)
	}
	panic("param: a field bound to an unknown type")
}

func setBound(p any, v Value) {
	switch p := p.(type) {
	case *float64:
		*p = v.(float64)
	case **float64:
		*p = optFloat(v)
	case *int64:
		*p = v.(int64)
	case *int:
		*p = int(v.(int64)) // int is 64 bits on every platform built
	case *bool:
		*p = v.(bool)
	case *string:
		*p, _ = v.(string)
	case *core.Count:
		*p = v.(core.Count)
	case **core.Count:
		*p = optCount(v)
	case *[]float64:
		*p = v.([]float64)
	case *[]int:
		*p = []int{}
		for _, k := range v.([]int64) {
			*p = append(*p, int(k)) // int is 64 bits on every platform built
		}
	default:
		panic("param: a field bound to an unknown type")
	}
}
