import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** What the control of a field carries: its id (the label points at it) and its hint and error line. */
export interface FieldControl {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'children' | 'className'> & {
  label: string;
  /** A word after the label, e.g. 'optional'. */
  optional?: string;
  /** A line under the control that explains it. */
  hint?: string;
  /** The validation message: shown under the control, which is then marked invalid. */
  error?: string;
  /** Extra classes of the field's box (not of the input). */
  className?: string;
  /**
   * Another control than a text input (a select, a textarea, an input with checkboxes that belong to it):
   * rendered with the field's `control` props. Without it, the field is an <input> with the other props.
   */
  children?: (control: FieldControl) => ReactNode;
};

/**
 * A labelled control with its hint and error line: the label is visible and tied to the control
 * (getByLabel finds it), the hint and the error are tied to it for screen readers.
 */
export function Field({ label, optional, hint, error, className, children, id: givenId, ...input }: FieldProps) {
  const ownId = useId();
  const id = givenId ?? ownId;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  const control: FieldControl = {
    id,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(error ? { 'aria-invalid': true as const } : {}),
  };
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>
        {label}
        {optional ? <span className="field-optional"> ({optional})</span> : null}
      </label>
      {children ? children(control) : <input {...control} {...input} />}
      {hint ? (
        <small id={hintId} className="field-hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A form's error line, announced to screen readers. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
