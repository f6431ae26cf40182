/// A LightGBM 4.7.0 model (`Booster.save_model`), embedded verbatim: 8 trees, 6 leaves, 4 features,
/// feature 1 with NaN (decision_type 8 = NaN goes right), trained on synthetic numpy data (seed
/// 20261129; nothing from the shared datasets). Expected predictions below were printed by
/// LightGBM's own `Booster.predict` for `rows`.
enum LightGBMFixture {
    static let binaryNaNFeature = #"""
tree
version=v4
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=3
objective=binary sigmoid:1
feature_names=Column_0 Column_1 Column_2 Column_3
feature_infos=[-2.9534169774587302:2.7578529468561803] [-2.8535605458453457:2.7980494767783668] [-2.9585185801838705:2.7938858644556586] [0:1]
tree_sizes=765 770 759 767 768 768 775 760

Tree=0
num_leaves=6
num_cat=0
split_feature=0 1 1 0 2
split_gain=95.6461 43.478 17.6227 16.1298 10.3472
threshold=0.39503245378787299 -0.082078379434639234 0.98652850333593645 -1.3638242268946525 -1.2044613891883829
decision_type=2 8 8 2 2
left_child=1 3 4 -1 -2
right_child=2 -3 -4 -5 -6
leaf_value=-0.39292079022539272 -0.066217888976312381 -0.28006998111642251 -0.061732907062983094 0.029863065838097592 0.2637530562057348
leaf_weight=3.9971556663513175 4.2469778954982749 57.708934932947159 10.492533624172209 37.223512142896652 36.224223226308823
leaf_count=16 17 231 42 149 145
internal_value=-0.053346 -0.168013 0.169244 -0.0111342 0.229126
internal_weight=149.893 98.9296 50.9637 41.2207 40.4712
internal_count=600 396 204 165 162
is_linear=0
shrinkage=1


Tree=1
num_leaves=6
num_cat=0
split_feature=0 1 1 0 1
split_gain=62.1456 30.2231 15.7633 21.5116 13.8897
threshold=0.39503245378787299 -0.85308890929694348 1.0929423226373698 -0.69907510874696854 -0.51071924334149565
decision_type=2 8 8 2 8
left_child=1 -1 3 -3 -2
right_child=4 2 -4 -5 -6
leaf_value=0.13197253805081263 0.33268653318002755 -0.26192835705897999 -0.27916463431220334 0.0049604183210504686 0.10795139780736965
leaf_weight=19.18025541305542 16.232432186603546 18.412932634353638 25.006415605545044 35.123769700527191 34.129713416099548
leaf_count=77 66 75 102 142 138
internal_value=-9.19646e-05 -0.0931024 -0.148066 -0.0868309 0.180387
internal_weight=148.086 97.7234 78.5431 53.5367 50.3621
internal_count=600 396 319 217 204
is_linear=0
shrinkage=0.2


Tree=2
num_leaves=6
num_cat=0
split_feature=0 1 1 2 0
split_gain=41.554 18.9094 18.864 11.5782 8.19564
threshold=0.085306562806889183 -0.85308890929694348 1.1422410712680144 -0.13437426734543886 0.98312953776463186
decision_type=2 8 8 2 2
left_child=1 3 -2 -1 -4
right_child=2 -3 4 -5 -6
leaf_value=-0.12143277904629857 0.1638986120956599 -0.15765636496265756 -0.20780742001305452 0.21723822204514601 0.11081709849441744
leaf_weight=6.693104192614558 55.327164247632027 58.068475335836411 9.126178026199339 10.17802172899246 4.9973309040069571
leaf_count=27 230 244 38 41 20
internal_value=-0.000216247 -0.103504 0.111235 0.0828808 -0.0950683
internal_weight=144.39 74.9396 69.4507 16.8711 14.1235
internal_count=600 312 288 68 58
is_linear=0
shrinkage=0.2


Tree=3
num_leaves=6
num_cat=0
split_feature=0 1 0 1 2
split_gain=29.8304 17.5207 11.6837 10.0476 7.82812
threshold=0.39503245378787299 0.30164865347758757 -1.1106499318496585 -0.51071924334149565 0.38634516427134052
decision_type=2 8 2 8 2
left_child=1 2 -1 -2 -4
right_child=3 -3 4 -5 -6
leaf_value=-0.17871067410794877 0.26817341429040181 -0.16650816396459123 -0.0061360770015825468 0.067997827656812213 0.17466759097472273
leaf_weight=10.607075199484823 14.41430816054344 39.765413239598274 27.8998963534832 32.97520324587822 14.58647011220455
leaf_count=46 66 176 114 138 60
internal_value=-0.000231727 -0.0661248 0.00905931 0.128885 0.0559377
internal_weight=140.248 92.8589 53.0934 47.3895 42.4864
internal_count=600 396 220 204 174
is_linear=0
shrinkage=0.2


Tree=4
num_leaves=6
num_cat=0
split_feature=0 1 1 1 0
split_gain=20.5937 14.2646 9.32862 6.43754 6.1847
threshold=-0.17093259885940157 1.2175913654289718 -0.85308890929694348 -0.51969094714837161 1.0536008056414143
decision_type=2 8 8 10 2
left_child=2 3 -1 -2 -3
right_child=1 4 -4 -5 -6
leaf_value=0.053998790814408906 0.19246657583264751 -0.19139140466516061 -0.13604160623461845 0.059878619126381927 0.089640961848770864
leaf_weight=13.51891055703163 23.024072393774986 10.615163639187811 43.829034015536308 40.262699320912361 4.4435073137283316
leaf_count=56 107 48 200 171 18
internal_value=-0.000174356 0.0664864 -0.0912425 0.108115 -0.108464
internal_weight=135.693 78.3454 57.3479 63.2868 15.0587
internal_count=600 344 256 278 66
is_linear=0
shrinkage=0.2


Tree=5
num_leaves=6
num_cat=0
split_feature=0 1 0 2 2
split_gain=16.3548 12.0204 9.42158 7.94546 5.78925
threshold=0.72000950261329144 1.0929423226373698 -1.1106499318496585 0.44574009546037113 -1.2044613891883829
decision_type=2 8 2 2 2
left_child=1 2 -1 -4 -2
right_child=4 -3 3 -5 -6
leaf_value=-0.16689163927836781 -0.11051304129734636 -0.17421445199362851 -0.020634689935634859 0.13229141031897773 0.14982516097131512
leaf_weight=12.031993255019186 3.8590122461318961 21.37586909532547 44.587665259838104 19.547898963093758 29.80925078690052
leaf_count=57 16 109 193 85 140
internal_value=-0.000200846 -0.0416846 -0.00449105 0.0259757 0.119986
internal_weight=131.212 97.5434 76.1676 64.1356 33.6683
internal_count=600 444 335 278 156
is_linear=0
shrinkage=0.2


Tree=6
num_leaves=6
num_cat=0
split_feature=0 1 1 2 0
split_gain=11.2951 8.69064 7.92952 5.60447 5.38135
threshold=0.22534927479759248 1.1422410712680144 -0.89407915628590462 -0.13437426734543886 -0.78040317813359117
decision_type=2 10 8 2 2
left_child=2 -2 3 -1 -4
right_child=1 -3 4 -5 -6
leaf_value=-0.059934580170753926 0.098192000697877257 -0.18414344110673297 -0.16708786123417183 0.17713484358763248 -0.040076292730565059
leaf_weight=7.0434843152761486 46.772081986069679 4.8093629479408255 20.247534677386284 9.1974312812089902 39.131294921040535
leaf_count=29 224 22 107 40 178
internal_value=-0.000293123 0.0718675 -0.0495151 0.0743208 -0.0833859
internal_weight=127.201 51.5814 75.6197 16.2409 59.3788
internal_count=600 246 354 69 285
is_linear=0
shrinkage=0.2


Tree=7
num_leaves=6
num_cat=0
split_feature=1 0 0 2 0
split_gain=9.5537 8.13503 8.06388 6.36867 4.03832
threshold=0.26806606830984175 0.80195147038342651 -1.4696759416719793 1.1713701985760816 0.22534927479759248
decision_type=8 2 2 2 2
left_child=2 3 -1 -2 -4
right_child=1 -3 4 -5 -6
leaf_value=-0.22738430410542834 -0.13823857209593091 0.06950350270305114 0.026529722285657649 0.10473741312474183 0.12888881264097102
leaf_weight=3.9823584705591193 35.398674800992012 13.755435526371 40.211775973439217 4.914015293121337 25.003799840807915
leaf_count=22 186 61 174 24 133
internal_value=-0.000314268 -0.063304 0.0489031 -0.10862 0.0657744
internal_weight=123.266 54.0681 69.1979 40.3127 65.2156
internal_count=600 271 329 210 307
is_linear=0
shrinkage=0.2


end of trees

feature_importances:
Column_0=17
Column_1=16
Column_2=7

parameters:
[boosting: gbdt]
[objective: binary]
[metric: binary_logloss]
[tree_learner: serial]
[device_type: cpu]
[data_sample_strategy: bagging]
[data: ]
[valid: ]
[num_iterations: 8]
[learning_rate: 0.2]
[num_leaves: 6]
[num_threads: 0]
[seed: 1]
[deterministic: 0]
[force_col_wise: 0]
[force_row_wise: 0]
[histogram_pool_size: -1]
[max_depth: -1]
[min_data_in_leaf: 15]
[min_sum_hessian_in_leaf: 0.001]
[bagging_fraction: 1]
[pos_bagging_fraction: 1]
[neg_bagging_fraction: 1]
[bagging_freq: 0]
[bagging_seed: 18467]
[bagging_by_query: 0]
[feature_fraction: 1]
[feature_fraction_bynode: 1]
[feature_fraction_seed: 26500]
[extra_trees: 0]
[extra_seed: 15724]
[early_stopping_round: 0]
[early_stopping_min_delta: 0]
[first_metric_only: 0]
[max_delta_step: 0]
[lambda_l1: 0]
[lambda_l2: 0]
[linear_lambda: 0]
[min_gain_to_split: 0]
[drop_rate: 0.1]
[max_drop: 50]
[skip_drop: 0.5]
[xgboost_dart_mode: 0]
[uniform_drop: 0]
[drop_seed: 6334]
[top_rate: 0.2]
[other_rate: 0.1]
[min_data_per_group: 100]
[max_cat_threshold: 32]
[cat_l2: 10]
[cat_smooth: 10]
[max_cat_to_onehot: 4]
[top_k: 20]
[monotone_constraints: ]
[monotone_constraints_method: basic]
[monotone_penalty: 0]
[feature_contri: ]
[forcedsplits_filename: ]
[refit_decay_rate: 0.9]
[cegb_tradeoff: 1]
[cegb_penalty_split: 0]
[cegb_penalty_feature_lazy: ]
[cegb_penalty_feature_coupled: ]
[path_smooth: 0]
[interaction_constraints: ]
[verbosity: -1]
[saved_feature_importance_type: 0]
[use_quantized_grad: 0]
[num_grad_quant_bins: 4]
[quant_train_renew_leaf: 0]
[stochastic_rounding: 1]
[linear_tree: 0]
[max_bin: 255]
[max_bin_by_feature: ]
[min_data_in_bin: 3]
[bin_construct_sample_cnt: 200000]
[data_random_seed: 41]
[is_enable_sparse: 1]
[enable_bundle: 1]
[use_missing: 1]
[zero_as_missing: 0]
[feature_pre_filter: 1]
[pre_partition: 0]
[two_round: 0]
[header: 0]
[label_column: ]
[weight_column: ]
[group_column: ]
[ignore_column: ]
[categorical_feature: ]
[forcedbins_filename: ]
[precise_float_parser: 0]
[parser_config_file: ]
[objective_seed: 19169]
[num_class: 1]
[is_unbalance: 0]
[scale_pos_weight: 1]
[sigmoid: 1]
[boost_from_average: 1]
[reg_sqrt: 0]
[alpha: 0.9]
[fair_c: 1]
[poisson_max_delta_step: 0.7]
[tweedie_variance_power: 1.5]
[lambdarank_truncation_level: 30]
[lambdarank_norm: 1]
[label_gain: ]
[lambdarank_position_bias_regularization: 0]
[eval_at: ]
[multi_error_top_k: 1]
[auc_mu_weights: ]
[num_machines: 1]
[local_listen_port: 12400]
[time_out: 120]
[machine_list_filename: ]
[machines: ]
[gpu_platform_id: -1]
[gpu_device_id: -1]
[gpu_device_id_list: ]
[gpu_use_dp: 0]
[num_gpu: 1]

end of parameters

pandas_categorical:null
"""#

    static let rows: [[Double]] = [
        [0.3, .nan, -1.0, 1.0], [-1.2, 0.4, 0.7, 0.0], [0.0, 0.0, 0.0, 0.0],
        [2.5, -2.0, .nan, 1.0], [.nan, .nan, .nan, .nan], [-0.05, 1.1, -0.3, 1.0],
    ]
    static let rawScores: [Double] = [-1.3392026274631141, -1.47442254594574, -0.41320464601377244,
                                      1.5978841659146352, -1.4273198658411599, -1.1760498420496173]
    static let probabilities: [Double] = [0.20764121676383193, 0.1862713392550744, 0.3981439566592427,
                                          0.831722460363538, 0.1935166236978699, 0.23576318833782933]
}
