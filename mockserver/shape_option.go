package mockserver

import (
	"github.com/atmkit/atmkit/shape"
)

// WithShape serves results in the shape sh (see package shape): its
// layout, element names, namespaces and value formats, in all four XML
// bindings, the help pages' samples and the WSDL, whose types then
// describe sh. Without it, or with a nil sh, the server serves
// shape.Default(). sh is validated and must not be modified afterwards.
func WithShape(sh *shape.Shape) Option {
	return func(c *config) error {
		if sh != nil {
			if err := sh.Validate(); err != nil {
				return err
			}
		}
		c.shape = sh
		return nil
	}
}

// Shape returns the shape the server writes its results in. Do not modify it.
func (s *Server) Shape() *shape.Shape { return s.enc.shape }
