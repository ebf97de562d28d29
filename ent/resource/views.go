package resource

// The representations a model renders, for describing them (the OpenAPI
// document) without rendering: each is the list of fields in output order.

// FullFields are the fields of the complete representation.
func (d *Descriptor) FullFields() []*Field { return d.full }

// BriefFields are the fields of ?brief=1.
func (d *Descriptor) BriefFields() []*Field { return d.brief }

// NestedFields are the fields of the object nested in another's FK field.
func (d *Descriptor) NestedFields() []*Field { return d.nested }

// TagFields are the fields of a tag inside an object's tags.
func (d *Descriptor) TagFields() []*Field { return d.tagForm }

// AsForm is how a Through reverse renders its own row under Reverse.As
// (nil: the row model's nested fields).
func (f *Field) AsForm() []*Field { return f.asForm }

// TargetModel is the model an FK or many-to-many field points at.
func (f *Field) TargetModel() *Descriptor { return f.target }
