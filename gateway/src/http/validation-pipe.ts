import { HttpException, HttpStatus, ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { ApiException } from './api-exception';
import { findUnsafeText } from './unsafe-text';

/** Total characters of validation messages in one reply; input quoted in them stays short. */
const MAX_VALIDATION_MESSAGES_LENGTH = 500;
const UNSAFE_TEXT_MESSAGE = Symbol('unsafeTextMessage');

/**
 * A DTO property's own answer to unsafe text (see GatewayValidationPipe), when the generic
 * "contains a character that is not allowed" is not what the product says.
 */
export function UnsafeTextMessage(message: string): PropertyDecorator {
  return (target, property) => Reflect.defineMetadata(UNSAFE_TEXT_MESSAGE, message, target, property);
}

/**
 * The gateway's one input gate: unknown fields and wrong types are refused (no implicit
 * conversion), and each property reports its first failure only. Before any of that, every
 * string in the value (body, query, route parameter) must be text PostgreSQL and UTF-8 can
 * carry: no NUL and no unpaired surrogate. That check comes first because validators choke on
 * such text (isEmail throws on a lone surrogate). Tests build the same pipe.
 */
class GatewayValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') {
      const path = findUnsafeText(value, metadata.data ? [metadata.data] : []);
      if (path)
        throw new ApiException(HttpStatus.BAD_REQUEST, 'validation_failed', unsafeTextMessage(path, metadata), {
          field: path.join('.') || undefined,
        });
    }
    return super.transform(value, metadata);
  }

  /** Nest's messages (trimmed to their budget), as `validation_failed` naming the first field. */
  override createExceptionFactory(): (errors?: ValidationError[]) => unknown {
    const nestFactory = super.createExceptionFactory();
    return (errors = []) => {
      const nestError = nestFactory(errors) as HttpException;
      const messages = (nestError.getResponse() as { message?: string | string[] }).message ?? 'Bad Request';
      return new ApiException(HttpStatus.BAD_REQUEST, 'validation_failed', messages, { field: firstFieldPath(errors) });
    };
  }
}

/** "address.city" for a nested failure; undefined when the body itself is wrong. */
function firstFieldPath(errors: ValidationError[]): string | undefined {
  const path: string[] = [];
  let error: ValidationError | undefined = errors[0];
  while (error) {
    if (error.property) path.push(error.property);
    error = error.constraints ? undefined : error.children?.[0];
  }
  return path.length ? path.join('.') : undefined;
}

export function createValidationPipe(): ValidationPipe {
  return new GatewayValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    maxErrorMessagesLength: MAX_VALIDATION_MESSAGES_LENGTH,
  });
}

function unsafeTextMessage(path: string[], metadata: ArgumentMetadata): string {
  const prototype = (metadata.metatype as { prototype?: object } | undefined)?.prototype;
  const own =
    prototype && path.length === 1 && !metadata.data
      ? (Reflect.getMetadata(UNSAFE_TEXT_MESSAGE, prototype, path[0]) as unknown)
      : undefined;
  return typeof own === 'string' ? own : `${fieldLabel(path)} contains a character that is not allowed.`;
}

/** "firstName" → "First name"; a nameless body or array element → "A field". */
function fieldLabel(path: string[]): string {
  const name = [...path].reverse().find((segment) => !/^\d+$/.test(segment));
  if (!name) return 'A field';
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .slice(0, 60);
  return words.charAt(0).toUpperCase() + words.slice(1);
}
