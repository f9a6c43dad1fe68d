import vine from '@vinejs/vine'
import { pagination, strictObject } from '#validators/helpers'

/** `?limit=&cursor=` for lists that take no other filter. */
export const pageValidator = vine.create(strictObject(pagination))
