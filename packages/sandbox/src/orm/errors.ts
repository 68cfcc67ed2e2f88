/**
 * @module Constructors for the exceptions Odoo raises, with Odoo's wording. Every message that a
 * client may compare against lives here or next to the rule that raises it.
 */
import { OdooException } from './types';

export type Operation = 'read' | 'write' | 'create' | 'unlink';

export const OPERATIONS: readonly Operation[] = ['read', 'write', 'create', 'unlink'];

const ACCESS_HEADERS: Record<Operation, string> = {
  read: "You are not allowed to access '%k' (%m) records.",
  write: "You are not allowed to modify '%k' (%m) records.",
  create: "You are not allowed to create '%k' (%m) records.",
  unlink: "You are not allowed to delete '%k' (%m) records.",
};

/**
 * ACL refusal (`ir.model.access._make_access_error`): header, the groups that would allow the
 * operation, and the closing advice, separated by blank lines.
 */
export function modelAccessError(operation: Operation, model: string, description: string, allowedGroups: readonly string[]): OdooException {
  const header = ACCESS_HEADERS[operation].replace('%k', description).replace('%m', model);
  const groupInfo = allowedGroups.length
    ? `This operation is allowed for the following groups:\n${allowedGroups.map((g) => `\t- ${g}`).join('\n')}`
    : 'No group currently allows this operation.';
  return accessError(`${header}\n\n${groupInfo}\n\nContact your administrator to request access if necessary.`);
}

export function accessError(message: string): OdooException {
  return new OdooException('odoo.exceptions.AccessError', message);
}

export function valueError(message: string): OdooException {
  return new OdooException('builtins.ValueError', message);
}

export function typeError(message: string): OdooException {
  return new OdooException('builtins.TypeError', message);
}

export function userError(message: string): OdooException {
  return new OdooException('odoo.exceptions.UserError', message);
}

export function attributeError(message: string): OdooException {
  return new OdooException('builtins.AttributeError', message);
}
