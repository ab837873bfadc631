/** Product categories. */
import { defineModule } from '../../module.ts';
import { CategoryRepository } from './category-repository.ts';
import { registerCategoryRoutes } from './category-routes.ts';
import { CategoryService } from './category-service.ts';

declare module '../../module.ts' {
  interface Services {
    categories: CategoryService;
  }
}

export const categoryModule = defineModule({
  name: 'category',
  needs: [],
  apiTags: { 'product-category': 'Product categories' },
  build: ({ core }) => ({ categories: new CategoryService({ db: core.db, categories: new CategoryRepository(core.db) }) }),
  routes: registerCategoryRoutes,
});
