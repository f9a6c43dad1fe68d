import { HttpContext } from '@adonisjs/core/http'
import { BaseSerializer } from '@adonisjs/core/transformers'
import type {
  CollectionContract,
  UnpackAsTopLevelCollection,
} from '@adonisjs/core/types/transformers'

/**
 * Turns what the transformers return into the JSON the API answers. Nothing is wrapped: a
 * resource answers as itself and a list as `{data, next_cursor}`, the shapes of the OpenAPI
 * document. No answer is a Lucid paginator page, so no pagination metadata is made.
 */
class ApiSerializer extends BaseSerializer<{ Wrap: undefined; PaginationMetaData: never }> {
  wrap = undefined

  definePaginationMetaData(): never {
    throw new Error('Lists page with cursors (`next_cursor`), never with a paginator')
  }
}

const serializer = new ApiSerializer()

/** A page of a list: its rows and the cursor of the next page (null on the last). */
export type CursorPage<Rows> = { data: Rows; next_cursor: string | null }

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** A transformer's output (or a record of them) as plain JSON, with the request's container. */
    serialize: ApiSerializer['serialize']
    /** The `{data, next_cursor}` body of every list, its rows through their transformer. */
    serializePage<Rows extends CollectionContract<any, any, any>>(
      rows: Rows,
      nextCursor: string | null
    ): Promise<CursorPage<UnpackAsTopLevelCollection<Rows, undefined>>>
  }
}

/** `ctx.serialize(BuyerTransformer.transform(buyer))`, in the API's and the portal's controllers. */
export default class ApiProvider {
  register() {
    HttpContext.instanceProperty('serialize', function (this: HttpContext, data: unknown) {
      return serializer.serialize(data, this.containerResolver)
    } as HttpContext['serialize'])
    HttpContext.instanceProperty('serializePage', async function (
      this: HttpContext,
      rows: CollectionContract<any, any, any>,
      nextCursor: string | null
    ) {
      return {
        data: await serializer.serialize(rows, this.containerResolver),
        next_cursor: nextCursor,
      }
    } as HttpContext['serializePage'])
  }
}
